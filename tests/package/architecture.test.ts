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

// The rules of "Where a change goes", each held by a test, not only by the table.
const src = fileURLToPath(new URL("src/", root));

function sources(folder: string): { file: string; code: string }[] {
  return readdirSync(`${src}${folder}`, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => ({
      file: `${folder}/${file}`,
      // Code only: comments say what the code does not do.
      code: readFileSync(`${src}${folder}/${file}`, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, ""),
    }));
}

const CORE = ["app", "context", "endpoint", "errors", "http", "params", "router", "schema", "view", "ws"];

test("the fast path's stand-in is named only in src/fast-path/ and the adapters: the core asks its helpers", () => {
  const naming = CORE.flatMap(sources)
    .filter(({ code }) => /\bFastRequest\b/.test(code))
    .map(({ file }) => file);
  assert.deepEqual(naming, []);
});

test("the core makes responses as parts: no Response built in src/app/ but the last resort and a form's encoding", () => {
  const built = sources("app").flatMap(({ file, code }) =>
    [...code.matchAll(/new Response\(/g)].map(() => file),
  );
  assert.deepEqual(built.sort(), ["app/rescue.ts", "app/respond.ts"]);
});

test("middleware is written on the public API: nothing in src/middleware/ imports the app's core or the stand-ins", () => {
  const reaching = sources("middleware").flatMap(({ file, code }) =>
    [...code.matchAll(/from "\.\.\/(app|fast-path)\/[^"]+"/g)].map((match) => `${file} → ${match[0]}`),
  );
  assert.deepEqual(reaching, []);
});

test("the request path waits once: its layers continue with later(), not a then of their own", () => {
  // Files whose continuations join the request's one `Later` (src/context/later.ts). A `.then(` here
  // would add a promise hop per layer again, and one that returned a `Later` would resolve to it.
  const path = [
    "app/dispatch.ts",
    "app/respond.ts",
    "app/route-step.ts",
    "app/run-chain.ts",
    "context/run-steps.ts",
    "endpoint/define-endpoint.ts",
    "params/parse-params.ts",
    "params/read-body.ts",
  ];
  const files = [...new Set(path.map((file) => file.split("/")[0]!))].flatMap(sources);
  const thens = files
    .filter(({ file }) => path.includes(file))
    .flatMap(({ file, code }) => [...code.matchAll(/\.then\(/g)].map(() => file));
  // Those allowed: the side branch that marks a middleware's next() done, on the promise it gives the
  // middleware; the runtime's own readers behind `readStandard`, each handing its bytes to one `finish`;
  // and the public `readBody`, which returns a promise to user code.
  assert.deepEqual(thens.sort(), [
    "app/run-chain.ts",
    "params/read-body.ts",
    "params/read-body.ts",
    "params/read-body.ts",
  ]);
  assert.equal(files.filter(({ file }) => path.includes(file)).length, path.length);
});
