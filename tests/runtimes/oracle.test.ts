import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import type { OracleReport } from "../router/oracle/oracle.ts";
import { root } from "./processes.ts";
import { nodeBin } from "./targets.ts";

// URLPattern as the oracle (issue 22.8) on the runtimes that have one: the same random patterns and
// paths (a fixed seed), Portico's compiled answer against the runtime's own URLPattern; differences
// only of the kinds the README documents.
const run = promisify(execFile);
const main = join(root, "tests", "router", "oracle", "main.ts");
const RUNTIMES: Record<string, readonly [string, readonly string[]]> = {
  "Node 24": [nodeBin(24), [main]],
  Deno: [join(root, "node_modules", ".bin", "deno"), ["run", "--allow-read", main]],
  Bun: [join(root, ".runtimes", "node_modules", ".bin", "bun"), [main]],
};

for (const [name, [command, args]] of Object.entries(RUNTIMES)) {
  test(`on ${name}: Portico's compiler answers as the runtime's URLPattern, but where documented`, async (t) => {
    const { stdout } = await run(command, [...args], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
    const report = JSON.parse(stdout.slice(stdout.indexOf("REPORT ") + 7)) as OracleReport;
    t.diagnostic(
      `${name}: ${report.agreed} of ${report.paths} agreed; documented: ${JSON.stringify(report.documented)}`,
    );
    assert.deepEqual(report.failed, []);
  });
}
