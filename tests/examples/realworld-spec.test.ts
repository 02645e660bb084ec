// The OpenAPI document Portico makes of examples/realworld, against the official RealWorld spec (a copy in
// examples/realworld/spec/): the same paths and methods, success statuses, request bodies (shape and
// required fields), success bodies, and error statuses. Every difference left is in KNOWN_DIFFERENCES,
// which examples/realworld/README.md explains: a new one, or one that went away, fails here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { conduit } from "../../examples/realworld/app.ts";
import type { Database } from "../../examples/realworld/db.ts";
import { deref } from "../openapi/deref.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const SPEC_FILE = join(
  import.meta.dirname,
  "..",
  "..",
  "examples",
  "realworld",
  "spec",
  "realworld-openapi.yml",
);

/** Each difference the comparison finds, as it words it. Explained in examples/realworld/README.md. */
const KNOWN_DIFFERENCES: readonly string[] = [
  'GET /profiles/{username}: security [] in the spec, [["Token"],[]] here',
  'GET /articles: security [] in the spec, [["Token"],[]] here',
  'GET /articles/{slug}: security [] in the spec, [["Token"],[]] here',
  'GET /articles/{slug}/comments: security [] in the spec, [["Token"],[]] here',
  "POST /users/login: also 413",
  "POST /users: also 413",
  "GET /user: no 422",
  "PUT /user: also 413",
  "GET /profiles/{username}: also 404",
  "POST /profiles/{username}/follow: also 404",
  "DELETE /profiles/{username}/follow: also 404",
  "POST /articles: also 413",
  "GET /articles/{slug}: also 401",
  "GET /articles/{slug}: also 404",
  "PUT /articles/{slug}: also 403",
  "PUT /articles/{slug}: also 404",
  "PUT /articles/{slug}: also 413",
  "DELETE /articles/{slug}: also 403",
  "DELETE /articles/{slug}: also 404",
  "GET /articles/{slug}/comments: also 404",
  "POST /articles/{slug}/comments: also 404",
  "POST /articles/{slug}/comments: also 413",
  "DELETE /articles/{slug}/comments/{id}: also 403",
  "DELETE /articles/{slug}/comments/{id}: also 404",
  "POST /articles/{slug}/favorite: also 404",
  "DELETE /articles/{slug}/favorite: also 404",
  "GET /tags: no 422",
];

// A schema reduced to what the comparison holds the two to: types, properties, required, items.
function shape(schema: Json): Json {
  if (schema === undefined || schema === null) return undefined;
  const type = Array.isArray(schema.type) ? schema.type.filter((t: string) => t !== "null")[0] : schema.type;
  if (type === "object" || schema.properties) {
    const properties = Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .map(([name, value]) => [name, shape(value)])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
    return { type: "object", properties, required: [...(schema.required ?? [])].sort() };
  }
  if (type === "array") return { type: "array", items: shape(schema.items) };
  return { type: type === "integer" ? "number" : type };
}

const METHODS = ["get", "put", "post", "delete", "patch"];

function compare(spec: Json, ours: Json): string[] {
  const found: string[] = [];
  const specPaths = Object.keys(spec.paths);
  const ourPaths = Object.keys(ours.paths)
    .filter((path) => path.startsWith("/api/") && path !== "/api/openapi.json")
    .map((path) => path.slice(4));
  for (const path of specPaths.filter((p) => !ourPaths.includes(p))) found.push(`missing path ${path}`);
  for (const path of ourPaths.filter((p) => !specPaths.includes(p))) found.push(`extra path ${path}`);
  for (const path of specPaths.filter((p) => ourPaths.includes(p))) {
    const theirs = spec.paths[path];
    const mine = ours.paths[`/api${path}`];
    for (const method of METHODS) {
      const a = theirs[method];
      const b = mine[method];
      const where = `${method.toUpperCase()} ${path}`;
      if (!a && !b) continue;
      if (!a || !b) {
        found.push(`${where}: ${a ? "missing" : "extra"}`);
        continue;
      }
      const statuses = (operation: Json) => Object.keys(operation.responses);
      const success = (operation: Json) => statuses(operation).filter((code) => code < "400");
      const errors = (operation: Json) => statuses(operation).filter((code) => code >= "400");
      if (success(a).join() !== success(b).join())
        found.push(`${where}: success ${success(a).join()} in the spec, ${success(b).join()} here`);
      for (const code of errors(a).filter((c: string) => !errors(b).includes(c)))
        found.push(`${where}: no ${code}`);
      for (const code of errors(b).filter((c: string) => !errors(a).includes(c)))
        found.push(`${where}: also ${code}`);
      const body = (operation: Json) => operation.requestBody?.content?.["application/json"]?.schema;
      if (Boolean(a.requestBody) !== Boolean(b.requestBody))
        found.push(`${where}: request body differs in presence`);
      else if (a.requestBody) {
        if (Boolean(a.requestBody.required) !== Boolean(b.requestBody.required))
          found.push(
            `${where}: request body required ${a.requestBody.required}, here ${b.requestBody.required}`,
          );
        if (JSON.stringify(shape(body(a))) !== JSON.stringify(shape(body(b))))
          found.push(
            `${where}: request body ${JSON.stringify(shape(body(a)))} in the spec, ${JSON.stringify(shape(body(b)))} here`,
          );
      }
      for (const code of success(a).filter((c: string) => success(b).includes(c))) {
        const answer = (operation: Json) => operation.responses[code]?.content?.["application/json"]?.schema;
        if (JSON.stringify(shape(answer(a))) !== JSON.stringify(shape(answer(b))))
          found.push(
            `${where}: ${code} body ${JSON.stringify(shape(answer(a)))} in the spec, ${JSON.stringify(shape(answer(b)))} here`,
          );
      }
      const query = (operation: Json) =>
        (operation.parameters ?? [])
          .filter((parameter: Json) => parameter.in === "query")
          .map((parameter: Json) => parameter.name)
          .sort()
          .join();
      if (query(a) !== query(b)) found.push(`${where}: query ${query(a)} in the spec, ${query(b)} here`);
      // Who may call it: the spec's `Token` scheme required, or nothing said (public, or a token optional).
      const security = (operation: Json) =>
        JSON.stringify(
          (operation.security ?? []).map((requirement: Json) => Object.keys(requirement).sort()),
        );
      if (security(a) !== security(b))
        found.push(`${where}: security ${security(a)} in the spec, ${security(b)} here`);
    }
  }
  return found;
}

test("the document of examples/realworld matches the RealWorld spec, but for the differences its README explains", () => {
  const spec = deref(parse(readFileSync(SPEC_FILE, "utf8")));
  const { document } = conduit({ db: {} as Database, jwtSecret: "a-secret-of-at-least-thirty-two-bytes!" });
  const differences = compare(spec, deref(JSON.parse(JSON.stringify(document))));
  assert.deepEqual([...differences].sort(), [...KNOWN_DIFFERENCES].sort());
});

test("the README of examples/realworld lists each known difference", () => {
  const readme = readFileSync(
    join(import.meta.dirname, "..", "..", "examples", "realworld", "README.md"),
    "utf8",
  );
  for (const difference of KNOWN_DIFFERENCES) assert.ok(readme.includes(difference), `README: ${difference}`);
});
