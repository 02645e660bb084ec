// Every ```ts sample of the README and of docs/guide/ compiles against the built package (npm run build first), with only
// the names its prose introduced declared beforehand (PRELUDE). See samples.ts.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkSamples, documentationSamples, runSample } from "./samples.ts";

const root = join(fileURLToPath(import.meta.url), "..", "..", "..");

// What the prose around the samples introduced: imported (or declared) for a sample that uses it
// without its own. The fakes are in prelude.ts, typed against the built package too.
const FAKES = "../../tests/docs/prelude.ts";
const PRELUDE: Record<string, string> = {
  v: 'import * as v from "valibot";',
  assert: 'import assert from "node:assert/strict";',
  ...Object.fromEntries(
    [
      "createApp",
      "defineEndpoint",
      "defineView",
      "defineChannel",
      "defineRoutes",
      "defineError",
      "defineErrorBody",
      "html",
      "t",
    ].map((name) => [name, `import { ${name} } from "portico";`]),
  ),
  csrf: 'import { csrf } from "portico/middleware";',
  cors: 'import { cors } from "portico/middleware";',
  createClient: 'import { createClient } from "portico/client";',
  app: 'declare const app: import("portico").App;',
  ...Object.fromEntries(
    [
      "UserView",
      "GetUser",
      "CreateUser",
      "GetPost",
      "AdminHome",
      "handler",
      "api",
      "users",
      "Unauthorized",
      "DbDown",
      "readOnly",
      "PageView",
      "ReportView",
      "upstream",
      "baseUrl",
      "ctxFor",
      "store",
      "pipeToStorage",
      "checkPassword",
      "live",
    ].map((name) => [name, `import { ${name} } from "${FAKES}";`]),
  ),
  ...Object.fromEntries(
    ["User", "Post", "D1Database"].map((name) => [name, `import type { ${name} } from "${FAKES}";`]),
  ),
};

// Files a sample imports that its reader would have made (a generated client's types, the server's routes).
const FILES: Record<string, string> = {
  "api.d.ts": [
    "// As openapi-typescript writes it for GET /api/users/{id} (its 200 and its declared 404).",
    "export interface paths {",
    '  "/api/users/{id}": {',
    "    parameters: { query?: never; header?: never; path?: never; cookie?: never };",
    "    get: {",
    "      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never };",
    "      requestBody?: never;",
    "      responses: {",
    '        200: { headers: { [name: string]: unknown }; content: { "application/json": { id: number; name: string } } };',
    "        404: {",
    "          headers: { [name: string]: unknown };",
    '          content: { "application/json": { error: { name: "User Not Found"; message: string; code: 404; payload: { id: number } } } };',
    "        };",
    "      };",
    "    };",
    "  };",
    "}",
    "",
  ].join("\n"),
  "../server/api.ts": `export { api } from "../../tests/docs/prelude.ts";\n`,
};

test("every TypeScript sample of the README and the guides compiles against the built package", () => {
  assert.ok(
    existsSync(join(root, "dist", "mod.d.ts")),
    "the samples are checked against the built package: run `npm run build` first",
  );
  const guides = readdirSync(join(root, "docs", "guide"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/guide/${file}`);
  const samples = documentationSamples(root, ["README.md", ...guides.sort()]);
  assert.ok(samples.length > 25, `found ${samples.length} samples`);
  const errors = checkSamples(root, samples, PRELUDE, FILES);
  assert.deepEqual(
    errors.map((error) => `${error.where}: ${error.message}`),
    [],
  );
});

test("every sample marked ```ts run runs as written: its tests pass, its server answers", async () => {
  const guides = readdirSync(join(root, "docs", "guide"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/guide/${file}`);
  const runnable = documentationSamples(root, ["README.md", ...guides.sort()]).filter((sample) => sample.run);
  assert.ok(runnable.length >= 5, `found ${runnable.length} runnable samples`);
  const failures: string[] = [];
  for (const [index, sample] of runnable.entries()) {
    const failure = await runSample(root, sample, PRELUDE, index);
    if (failure !== undefined) failures.push(failure);
  }
  assert.deepEqual(failures, []);
});
