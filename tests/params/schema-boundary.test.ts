// The schema boundary (src/schema/): what a `t` helper records is one mark in its own pipe, read the
// same way by the caster, the fast validator, multipart and OpenAPI; a Standard Schema runs inside a
// valibot schema made with valibot's API; nothing of Portico leaks into a user's own valibot tooling.
import assert from "node:assert/strict";
import { test } from "node:test";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { z } from "zod";
import { createApp, defineEndpoint, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { declared } from "../../src/schema/declared.ts";
import { UNSURE } from "../../src/schema/scalars.ts";

test("a t helper converted by the app's own to-json-schema call gives plain JSON Schema", () => {
  const json = toJsonSchema(v.object({ id: t.int32(), at: t.date(), on: t.bool() }), { typeMode: "input" });
  assert.deepEqual(json.properties, {
    id: { type: "integer", minimum: -2147483648, maximum: 2147483647, format: "int32" },
    at: {
      type: "string",
      format: "date-time",
      description: "ISO 8601 date or date-time; UTC without an offset",
    },
    on: { type: "boolean" },
  });
});

test("t.key() around a plain schema keeps the fast validator; a check added to a helper does not", () => {
  const renamed = declared({ userId: t.key("user_id", v.string()), n: t.key("n_", t.int32()) });
  assert.ok(renamed.fast);
  assert.deepEqual(renamed.fast({ userId: "a", n: 3 }), { userId: "a", n: 3 });
  assert.deepEqual(
    renamed.plan.kind === "group" && renamed.plan.fields.map(({ field, key }) => [field, key]),
    [
      ["userId", "user_id"],
      ["n", "n_"],
    ],
  );
  const checked = declared({ n: v.pipe(t.int32(), v.minValue(1)) });
  assert.equal(checked.fast, undefined);
  assert.equal(checked.validate({ n: 0 }).ok, false);
  assert.equal(declared({ n: t.int32() }).fast?.({ n: 2 ** 31 }), UNSURE);
});

test("a string whose own metadata says format: binary is not a file: the form stays urlencoded too", () => {
  const app = createApp();
  const upload = defineEndpoint({
    params: { form: { note: v.pipe(v.string(), v.metadata({ format: "binary" })) } },
    call: () => new Response(null, { status: 204 }),
  });
  const files = defineEndpoint({
    params: { form: { doc: t.file() } },
    call: () => new Response(null, { status: 204 }),
  });
  app.post("/note", upload);
  app.post("/file", files);
  const doc = openapi(app, { info: { title: "t", version: "1" } });
  const media = (path: string) =>
    Object.keys((doc.paths[path]!.post as { requestBody: { content: object } }).requestBody.content);
  assert.deepEqual(media("/note"), ["application/x-www-form-urlencoded", "multipart/form-data"]);
  assert.deepEqual(media("/file"), ["multipart/form-data"]);
});

test("a zod entry among valibot's: cast from its JSON Schema, its issues with their path", () => {
  const read = declared({ page: z.number().int(), filter: { min: z.number().optional() }, q: v.string() });
  assert.deepEqual(
    read.plan.kind === "group" &&
      read.plan.fields.map(({ field, plan }) => [field, plan.kind === "scalar" ? plan.typeName : plan.kind]),
    [
      ["page", "Integer"],
      ["filter", "group"],
      ["q", "String"],
    ],
  );
  const failed = read.validate({ page: 1.5, filter: { min: "x" }, q: "a" });
  assert.equal(failed.ok, false);
  assert.deepEqual(!failed.ok && failed.issues.map((issue) => issue.path), [["page"], ["filter", "min"]]);
  assert.deepEqual(read.validate({ page: 2, filter: {}, q: "a" }), {
    ok: true,
    value: { page: 2, filter: {}, q: "a" },
  });
});
