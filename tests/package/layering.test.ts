import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { LAYERS } from "./layers.ts";

// Imports go one way (ARCHITECTURE.md): a module imports from its own folder or from a lower layer,
// never from a higher one or from a sibling on its layer. Shared contracts live low.
// No exception: the core reaches a runtime through `src/runtime/runtime.ts` only, and the adapters
// (the top layer) implement it; root modules (`mod.ts`, `create-app.ts`) compose and may import anything.
const layerOf = (file: string): string => (file.includes("/") ? file.split("/")[0]! : "(root)");

const src = fileURLToPath(new URL("../../src/", import.meta.url));
const levelOf = (folder: string): number => LAYERS.findIndex((layer) => layer.includes(folder));

test("every folder of src/ has a layer", () => {
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    if (entry.isDirectory()) assert.notEqual(levelOf(entry.name), -1, `src/${entry.name} has no layer`);
  }
});

test("imports point only at the module's own folder or a lower layer", () => {
  const problems: string[] = [];
  for (const file of readdirSync(src, { recursive: true }) as string[]) {
    if (!file.endsWith(".ts") || !file.includes("/")) continue;
    const folder = layerOf(file);
    const text = readFileSync(join(src, file), "utf8");
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = relative(src, normalize(join(src, dirname(file), match[1]!)));
      const targetFolder = layerOf(target);
      if (targetFolder === folder) continue;
      if (targetFolder === "(root)" || levelOf(targetFolder) >= levelOf(folder)) {
        problems.push(`src/${file} imports ${match[1]} (${targetFolder} is not below ${folder})`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("no import circle in src/, inside a folder either", () => {
  const imports = new Map<string, string[]>();
  for (const file of readdirSync(src, { recursive: true }) as string[]) {
    if (!file.endsWith(".ts")) continue;
    const text = readFileSync(join(src, file), "utf8");
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) =>
      relative(src, normalize(join(src, dirname(file), match[1]!))),
    );
    imports.set(file, targets);
  }
  const circles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const target of imports.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, "done");
  };
  for (const file of imports.keys()) visit(file, []);
  assert.deepEqual(circles, []);
});

test("the client's code is its own and the wire contract's: nothing of the server reaches a browser bundle", async () => {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [join(src, "client/mod.ts")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs).map((file) => relative(src, join(process.cwd(), file)));
  assert.deepEqual(
    inputs.filter((file) => !file.startsWith("client/") && !file.startsWith("wire/")),
    [],
  );
});
