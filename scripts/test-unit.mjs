// `npm run test:unit`: the tests that need no other runtime, service or browser, in a few processes instead
// of one per file. Each of the ~70 files paid tsx's start-up in its own process (~0.7 s of CPU, half of
// the suite's), which took it over its minute on a 2-core machine. The files are dealt into GROUPS
// processes by size (largest first, each to the lightest group), each process importing its files in
// turn; the node:test runner reports every file's tests as before (a failure's location names its file).
// Arguments are passed on to `tsx --test` (`npm run test:unit -- --test-name-pattern=etag`).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const LEFT_OUT = ["tests/runtimes", "tests/services", "tests/browser", "tests/docs", "tests/examples"];
const GROUPS = Number(process.env.UNIT_GROUPS ?? 3);

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || LEFT_OUT.includes(path) ? [] : find(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = find("tests").sort();
const groups = Array.from({ length: GROUPS }, () => ({ size: 0, files: [] }));
for (const file of [...files].sort((a, b) => statSync(b).size - statSync(a).size)) {
  const lightest = groups.reduce((a, b) => (b.size < a.size ? b : a));
  lightest.size += statSync(file).size;
  lightest.files.push(file);
}

const work = mkdtempSync(join(tmpdir(), "portico-unit-"));
const entries = groups
  .filter((group) => group.files.length > 0)
  .map((group, index) => {
    const entry = join(work, `group-${index}.test.mjs`);
    // A file that fails to load is a failing test of its own; the group's other files still run.
    const imports = group.files.sort().map((file) => {
      const url = JSON.stringify(pathToFileURL(resolve(file)).href);
      return `try { await import(${url}); } catch (error) { test(${JSON.stringify(`loading ${file}`)}, () => { throw error; }); }`;
    });
    writeFileSync(entry, `import { test } from "node:test";\n${imports.join("\n")}\n`);
    return entry;
  });

const tsx = resolve("node_modules/.bin/tsx");
const child = spawn(tsx, ["--test", `--test-concurrency=${GROUPS}`, ...process.argv.slice(2), ...entries], {
  stdio: "inherit",
});
child.on("exit", (code, signal) => {
  rmSync(work, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
