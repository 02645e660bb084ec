// The public API report: one `api/<entry>.api.md` per entry point of package.json's `exports`, made by
// API Extractor from the built declarations (run `npm run build` first). Every exported name with its
// full signature, and every type a signature reaches that the entry does not export ("forgotten"
// exports are part of the surface too).
//
//   node scripts/api-report.mjs           fails, printing the difference, when the surface changed
//                                         and the committed report was not updated
//   node scripts/api-report.mjs --update  writes the reports (commit them with the change)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = join(import.meta.dirname, "..");
const reports = join(root, "api");
const update = process.argv.includes("--update");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const scratch = mkdtempSync(join(tmpdir(), "portico-api-"));

// Messages that are about API Extractor's own conventions (release tags, TSDoc dialect), not the API.
const QUIET = { logLevel: "none" };
const changed = [];
try {
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const name = subpath === "." ? "portico" : `portico-${subpath.slice(2).replaceAll("/", "-")}`;
    const reportFile = `${name}.api.md`;
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: join(root, target.types),
        compiler: { tsconfigFilePath: join(root, "tsconfig.build.json") },
        apiReport: {
          enabled: true,
          reportFileName: reportFile,
          reportFolder: scratch,
          reportTempFolder: scratch,
          includeForgottenExports: true,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: "warning" } },
          extractorMessageReporting: {
            default: QUIET,
            "ae-wrong-input-file-type": QUIET,
          },
          tsdocMessageReporting: { default: QUIET },
        },
      },
      configObjectFullPath: join(root, "api-extractor.json"),
      packageJsonFullPath: join(root, "package.json"),
    });
    const result = Extractor.invoke(config, {
      localBuild: true,
      showVerboseMessages: false,
      messageCallback: quiet,
    });
    if (!result.succeeded)
      throw new Error(`API Extractor failed on ${subpath} (${result.errorCount} errors)`);
    const made = normalise(readFileSync(join(scratch, reportFile), "utf8"), subpath);
    const committed = join(reports, reportFile);
    const before = existsSync(committed) ? readFileSync(committed, "utf8") : undefined;
    if (made === before) continue;
    changed.push({ subpath, committed, made, before });
  }
  if (changed.length === 0) {
    console.log(`API report: ${Object.keys(pkg.exports).length} entry points, unchanged`);
  } else if (update) {
    mkdirSync(reports, { recursive: true });
    for (const { committed, made } of changed) writeFileSync(committed, made);
    console.log(`API report updated: ${changed.map((c) => c.subpath).join(", ")}`);
  } else {
    for (const { subpath, made, before } of changed) {
      console.error(
        `\nThe public API of "${subpath === "." ? "portico" : `portico/${subpath.slice(2)}`}" changed:\n`,
      );
      console.error(difference(before ?? "", made));
    }
    console.error(
      "\nThe public surface changed and api/ was not updated. If the change is meant, run `npm run api:update`,\n" +
        "commit api/ with it, and say it in the CHANGELOG (docs/guide/stability.md says what is breaking).",
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function quiet(message) {
  // Compiler warnings are printed; API Extractor's own notes (release tags, TSDoc) are not.
  if (message.category !== "Compiler") message.handled = true;
}

// The report without what changes from machine to machine, and with the entry it describes.
function normalise(text, subpath) {
  const entry = subpath === "." ? "portico" : `portico/${subpath.slice(2)}`;
  return text
    .replace(/^## API Report File for "[^"]*"/m, `## API Report File for "${entry}"`)
    .replaceAll("\r\n", "\n");
}

// The lines that differ, as `-` (committed) and `+` (now) with three lines of context: the common start
// and end are set aside, and the rest compared line by line (a longest common subsequence).
function difference(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const lines = a.slice(Math.max(0, start - 3), start).map((line) => `  ${line}`);
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      lines.push(`  ${x[i++]}`);
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) lines.push(`- ${x[i++]}`);
    else lines.push(`+ ${y[j++]}`);
  }
  lines.push(...a.slice(endA, endA + 3).map((line) => `  ${line}`));
  return `@@ from line ${Math.max(1, start - 2)} @@\n${lines.join("\n")}`;
}
