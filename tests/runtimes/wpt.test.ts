import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { promisify } from "node:util";
import { runWpt, type WptReport } from "../router/wpt/run-wpt.ts";
import { root, startWorker } from "./processes.ts";
import { nodeBin } from "./targets.ts";

// The web-platform-tests URLPattern pathname cases give the same result on every runtime as on this
// Node (Portico compiles patterns itself): tests/router/wpt.test.ts checks this Node's against the standard.
const run = promisify(execFile);
const main = join(root, "tests", "router", "wpt", "main.ts");
const data = JSON.parse(
  readFileSync(join(root, "tests", "router", "wpt", "urlpatterntestdata.json"), "utf8"),
);
const runtimes: Record<string, () => Promise<WptReport>> = {
  "Node 22": () => spawned(nodeBin(22), [main]),
  "Node 24": () => spawned(nodeBin(24), [main]),
  Deno: () => spawned(join(root, "node_modules", ".bin", "deno"), ["run", "--allow-read", main]),
  Bun: () => spawned(join(root, ".runtimes", "node_modules", ".bin", "bun"), [main]),
  workerd: async () => {
    const worker = await startWorker(join(root, "tests", "router", "wpt", "worker.ts"));
    try {
      return (await (await fetch(worker.origin)).json()) as WptReport;
    } finally {
      await worker.stop();
    }
  },
};

async function spawned(command: string, args: string[]): Promise<WptReport> {
  const { stdout } = await run(command, args, { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
  return JSON.parse(stdout.slice(stdout.indexOf("REPORT ") + 7));
}

let reference: WptReport;
before(async () => {
  reference = await runWpt(data);
});

for (const [name, report] of Object.entries(runtimes)) {
  test(`on ${name}: the same results as on Node 20`, { timeout: 60_000 }, async () => {
    assert.deepEqual(await report(), reference);
  });
}
