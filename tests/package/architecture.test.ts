// ARCHITECTURE.md stays true: every folder of src/ is in its layer table, and the table is the layers
// the layering test enforces, in order.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { LAYERS } from "./layers.ts";

const root = new URL("../../", import.meta.url);
const text = readFileSync(new URL("ARCHITECTURE.md", root), "utf8");
const section = text.slice(text.indexOf("## Layers"), text.indexOf("## Where a change goes"));
// Rows `| 3 | \`pubsub/\` | …`: the layer number and the folders of its second column.
const table = [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((row) => ({
  layer: Number(row[1]),
  folders: [...row[2]!.matchAll(/`([\w-]+)\/`/g)].map((folder) => folder[1]!),
}));

test("ARCHITECTURE.md's layer table is the layers the layering test enforces, in order", () => {
  assert.deepEqual(
    table.map(({ layer }) => layer),
    LAYERS.map((_, index) => index),
  );
  assert.deepEqual(
    table.map(({ folders }) => [...folders].sort()),
    LAYERS.map((layer) => [...layer].sort()),
  );
});

test("every folder of src/ is on the map", () => {
  const folders = readdirSync(fileURLToPath(new URL("src/", root)), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const mapped = new Set(table.flatMap(({ folders: listed }) => listed));
  assert.deepEqual(
    folders.filter((folder) => !mapped.has(folder)),
    [],
  );
});

test("every file ARCHITECTURE.md names exists", () => {
  const named = new Set([...text.matchAll(/`(src\/[\w/.-]+\.ts)`/g)].map((match) => match[1]!));
  const missing = [...named].filter((file) => {
    try {
      readFileSync(new URL(file, root));
      return false;
    } catch {
      return true;
    }
  });
  assert.deepEqual(missing, []);
});
