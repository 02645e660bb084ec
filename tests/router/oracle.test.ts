// URLPattern as the oracle (issue 22.8): random patterns and paths, Portico's compiled answer against
// urlpattern-polyfill here; tests/runtimes/oracle.test.ts does the same against each runtime's own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { URLPattern } from "urlpattern-polyfill";
import { compare, type URLPatternClass } from "./oracle/oracle.ts";

test("Portico's compiler answers as urlpattern-polyfill, but where the README says it differs", (t) => {
  const report = compare(URLPattern as unknown as URLPatternClass, { polyfill: true });
  t.diagnostic(JSON.stringify(report));
  assert.deepEqual(report.failed, []);
  assert.ok(report.agreed > report.paths * 0.9, `agreed on ${report.agreed} of ${report.paths}`);
});
