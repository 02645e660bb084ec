// The cross-instance suites' instances (`instance.ts`) on Node 24, Bun and Deno, pointed at a broker by
// `env`.
import { join } from "node:path";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { nodeBin } from "../runtimes/targets.ts";

const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const deno = join(root, "node_modules", ".bin", "deno");
const entry = "tests/services/instance.ts";

/** Starts one instance per runtime (Node 24, Bun, Deno), in that order. */
export function startInstances(env: Record<string, string>): Promise<StartedProcess[]> {
  return Promise.all([
    startProcess(nodeBin(24), [entry], env),
    startProcess(bun, ["run", entry], env),
    startProcess(deno, ["run", "--allow-net", "--allow-env", "--allow-read", entry], env),
  ]);
}
