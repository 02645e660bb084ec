import { join } from "node:path";
import type { Runtime } from "../conformance/client.ts";
import { root, startProcess, startWorker } from "./processes.ts";

const bin = (name: string): string => join(root, ".runtimes", "node_modules", ".bin", name);
/** The Node binaries installed from npm (`.bin/node` would be whichever was linked last). */
export const nodeBin = (major: 22 | 24): string =>
  join(root, ".runtimes", "node_modules", `node${major}`, "bin", "node");
const denoBin = join(root, "node_modules", ".bin", "deno");

/** A server the suite started, and how to stop it. */
export interface RunningTarget {
  readonly origin: string;
  stop(): Promise<void>;
}

/** One runtime the conformance suite runs on. */
export interface Target {
  readonly name: string;
  readonly runtime: Runtime;
  start(): Promise<RunningTarget>;
}

const entry = (name: string): string => join("tests", "runtimes", "entries", name);
const DENO_FLAGS = ["--allow-net", "--allow-env", "--allow-read"];

/** Node 24 from npm, running the TypeScript sources with its built-in type stripping. */
export const node24: Target = {
  name: "Node 24 (npm node@24)",
  runtime: "node",
  start: () => startProcess(nodeBin(24), [entry("node.ts")]),
};

/** Deno from npm, with `Deno.serve(app.fetch)`. */
export const deno: Target = {
  name: "Deno (Deno.serve)",
  runtime: "deno",
  start: () => startProcess(denoBin, ["run", ...DENO_FLAGS, entry("deno.ts")]),
};

/** Deno from npm, with `deno serve` and `export default app`. */
export const denoServe: Target = {
  name: "Deno (deno serve)",
  runtime: "deno",
  start: () =>
    startProcess(denoBin, [
      "serve",
      ...DENO_FLAGS,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      entry("deno-serve.ts"),
    ]),
};

/** Bun from npm, through `portico/bun`'s `serve`. */
export const bun: Target = {
  name: "Bun (portico/bun serve)",
  runtime: "bun",
  start: () => startProcess(bin("bun"), ["run", entry("bun.ts")]),
};

/** Bun from npm, with `Bun.serve(app)`. */
export const bunDefault: Target = {
  name: "Bun (Bun.serve(app))",
  runtime: "bun",
  start: () => startProcess(bin("bun"), ["run", entry("bun-default.ts")], { PORT: "0" }),
};

/** Deno from npm, through `portico/deno`'s `serve`. */
export const denoHelper: Target = {
  name: "Deno (portico/deno serve)",
  runtime: "deno",
  start: () => startProcess(denoBin, ["run", ...DENO_FLAGS, entry("deno-helper.ts")]),
};

/** workerd through Miniflare, with the app bundled as a module worker (`export default app`). */
export const workerd: Target = {
  name: "workerd (Miniflare)",
  runtime: "workerd",
  async start() {
    return startWorker(join(root, entry("workers.ts")));
  },
};
