import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const read = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"));
const pkg = read("package.json");
const deno = read("deno.json");
const jsr = read("jsr.json");
const ENTRY_POINTS = [
  ".",
  "./node",
  "./bun",
  "./deno",
  "./workers",
  "./cookie",
  "./sse",
  "./middleware",
  "./jwt",
  "./otel",
  "./static",
  "./session",
  "./openapi",
  "./client",
  "./pubsub/redis",
  "./pubsub/nats",
  "./pubsub/emitter",
];

test("package.json, deno.json and jsr.json agree on version, license and entry points", () => {
  assert.equal(pkg.name, "portico");
  assert.equal(deno.name, "@portico/portico");
  assert.equal(jsr.name, deno.name);
  for (const manifest of [deno, jsr]) {
    assert.equal(manifest.version, pkg.version);
    assert.equal(manifest.license, pkg.license);
  }
  assert.deepEqual(jsr.exports, deno.exports);
  assert.deepEqual(Object.keys(pkg.exports as object), ENTRY_POINTS);
  assert.deepEqual(Object.keys(deno.exports as object), ENTRY_POINTS);
  // npm ships the compiled module of the very file JSR ships as source, with its declarations.
  for (const [name, source] of Object.entries(deno.exports as Record<string, string>)) {
    const compiled = source.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, "");
    assert.deepEqual(
      (pkg.exports as Record<string, unknown>)[name],
      { types: `${compiled}.d.ts`, default: `${compiled}.js` },
      `package.json exports["${name}"]`,
    );
  }
});

test("every entry point exists and loads", async () => {
  for (const [name, file] of Object.entries(deno.exports as Record<string, string>)) {
    assert.ok(existsSync(new URL(`../../${file}`, import.meta.url)), `${name} → ${file}`);
  }
  const core = await import("../../src/mod.ts");
  for (const name of [
    "createApp",
    "createRouter",
    "defineEndpoint",
    "defineView",
    "defineError",
    "defineChannel",
    "t",
    "HttpError",
  ]) {
    assert.ok(name in core, `portico exports ${name}`);
  }
  assert.equal(typeof (await import("../../src/adapters/node.ts")).serve, "function");
  assert.equal(typeof (await import("../../src/adapters/workers.ts")).toWorker, "function");
});

test("the runtime dependencies are the chosen two", () => {
  assert.deepEqual(Object.keys(pkg.dependencies as object).sort(), ["valibot", "ws"]);
});

test("the core imports no runtime-specific API", () => {
  const files = [
    "app",
    "client",
    "context",
    "cookie",
    "endpoint",
    "errors",
    "http",
    "middleware",
    "openapi",
    "params",
    "pubsub",
    "router",
    "sse",
    "view",
    "ws",
  ].flatMap((dir) =>
    readdirSync(new URL(`../../src/${dir}`, import.meta.url))
      .filter((file) => file.endsWith(".ts"))
      .map((file) => `src/${dir}/${file}`),
  );
  for (const file of files) {
    const source = readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
    assert.doesNotMatch(source, /from "(?:node:[^"]+|ws|bun|deno)"|import\("node:/, file);
  }
});
