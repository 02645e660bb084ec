import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { root, startWorker } from "../runtimes/processes.ts";
import { nodeBin } from "../runtimes/targets.ts";
import { runWpt, type WptReport } from "./wpt/run-wpt.ts";

// Issue 9.9: the web-platform-tests URLPattern pathname cases give the same result on every runtime
// (Portico compiles patterns itself), equal to the standard's, the router differing only as documented.
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

test("on Node 20: the compiler gives the standard's result for every pathname case", async (t) => {
  reference = await runWpt(data);
  assert.deepEqual(reference.compiler.failed, []);
  assert.deepEqual(reference.router.failed, []);
  t.diagnostic(
    `compiler: ${reference.compiler.passed} cases equal to the standard; router: ${reference.router.passed} ` +
      `equal, ${reference.router.deviations.length} documented deviations:`,
  );
  for (const line of reference.router.deviations) t.diagnostic(`  ${line}`);
  assert.ok(reference.compiler.passed >= 160);
  // Only the documented kinds of deviation, and only a few.
  assert.ok(reference.router.deviations.every((line) => /\((trailing slash|case-sensitive)\)$/.test(line)));
});

for (const [name, report] of Object.entries(runtimes)) {
  test(`on ${name}: the same results as on Node 20`, { timeout: 60_000 }, async () => {
    assert.deepEqual(await report(), reference);
  });
}
