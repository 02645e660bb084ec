import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "../runtimes/processes.ts";
import { runWpt, type WptReport } from "./wpt/run-wpt.ts";

// Issue 9.9: the web-platform-tests URLPattern pathname cases, on this Node: the compiler equals the
// standard, the router differs only as documented. tests/runtimes/wpt.test.ts gives the same on every
// other runtime.
const data = JSON.parse(
  readFileSync(join(root, "tests", "router", "wpt", "urlpatterntestdata.json"), "utf8"),
);
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
