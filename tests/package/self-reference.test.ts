// The examples import `portico` by name, as a user's app does. In this repository the name reaches the
// sources without a build: through tsconfig.json's `paths` (tsx, tsc, Bun, esbuild) and deno.json's
// `imports` (Deno); plain Node (type stripping) resolves it through package.json's `exports`. All four
// must name the same entry points, each the same source.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));
const byName = (exports: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(exports).map(([key, value]) => [
      key === "." ? "portico" : `portico/${key.slice(2)}`,
      value,
    ]),
  );

test("tsconfig paths, deno.json imports, jsr.json and package.json exports agree", () => {
  const sources = byName(read("jsr.json").exports) as Record<string, string>;
  const paths = read("tsconfig.json").compilerOptions.paths as Record<string, string[]>;
  const imports = read("deno.json").imports as Record<string, string>;
  const built = byName(read("package.json").exports) as Record<string, { default: string }>;
  assert.deepEqual(paths, Object.fromEntries(Object.entries(sources).map(([name, file]) => [name, [file]])));
  assert.deepEqual(
    Object.fromEntries(Object.entries(imports).filter(([name]) => name.split("/")[0] === "portico")),
    sources,
  );
  assert.deepEqual(
    Object.fromEntries(Object.entries(built).map(([name, target]) => [name, target.default])),
    Object.fromEntries(
      Object.entries(sources).map(([name, file]) => [
        name,
        file.replace("./src/", "./dist/").replace(/\.ts$/, ".js"),
      ]),
    ),
  );
});

test("no example reaches into src/: each imports portico by name", () => {
  const examples = join(root, "examples");
  const offenders = (readdirSync(examples, { recursive: true }) as string[])
    .filter((file) => file.endsWith(".ts"))
    .filter((file) => /from\s+"(?:\.\.\/)+src\//.test(readFileSync(join(examples, file), "utf8")));
  assert.deepEqual(offenders, []);
});
