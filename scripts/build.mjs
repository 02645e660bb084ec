// Builds the npm package: src/*.ts → dist/*.js + .d.ts (with declaration and source maps).
// tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but not in declarations, which would
// then ask consumers for `allowImportingTsExtensions` (TS5097): this script rewrites those too.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});

const RELATIVE_TS = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.ts(["'])/g;
let files = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, "utf8");
  const rewritten = text.replace(RELATIVE_TS, "$1$2.js$3");
  if (rewritten !== text) writeFileSync(file, rewritten);
  files++;
}
console.log(`Built dist/ (${files} declaration files)`);
