// The same declarations in valibot, zod and arktype: the same casting of path, query and form strings,
// the same parsed values, and Portico's error messages (never the library's issue objects, nor the
// values its messages echo).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type } from "arktype";
import * as v from "valibot";
import { z } from "zod";
import { createApp, defineEndpoint } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

const declarations = {
  valibot: {
    path: { id: v.pipe(v.number(), v.integer()) },
    query: {
      limit: v.optional(v.pipe(v.number(), v.integer())),
      tags: v.optional(v.array(v.number())),
      flag: v.boolean(),
      filter: v.optional(v.object({ min: v.number() })),
    },
    form: { role: v.picklist(["admin", "user"]), pin: v.pipe(v.string(), v.minLength(6)) },
  },
  zod: {
    path: { id: z.number().int() },
    query: {
      limit: z.number().int().optional(),
      tags: z.array(z.number()).optional(),
      flag: z.boolean(),
      filter: z.object({ min: z.number() }).optional(),
    },
    form: { role: z.enum(["admin", "user"]), pin: z.string().min(6) },
  },
  arktype: {
    path: { id: type("number.integer") },
    query: {
      limit: type("number.integer | undefined"),
      tags: type("number[] | undefined"),
      flag: type("boolean"),
      filter: type({ min: "number" }).or("undefined"),
    },
    form: { role: type("'admin' | 'user'"), pin: type("string >= 6") },
  },
} as const;

for (const [library, params] of Object.entries(declarations)) {
  describe(`params declared with ${library}`, () => {
    const Echo = defineEndpoint({
      params: { path: params.path, query: params.query },
      call(ep) {
        return Response.json({ path: ep.params.path, query: ep.params.query });
      },
    });
    const Login = defineEndpoint({
      params: { form: params.form },
      call(ep) {
        return Response.json(ep.params.form ?? null);
      },
    });
    const app = createApp();
    app.get("/items/:id", Echo);
    app.post("/login", Login);
    const json = { accept: "application/json" };

    test("casts path and query strings from the schema's JSON Schema: integers, arrays, booleans, groups", async () => {
      const res = await app.request("/items/7?limit=5&tags=1&tags=2.5&flag=true&filter[min]=1.5");
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {
        path: { id: 7 },
        query: { limit: 5, tags: [1, 2.5], flag: true, filter: { min: 1.5 } },
      });
      const bare = await app.request("/items/7?flag=false");
      assert.deepEqual(await bare.json(), { path: { id: 7 }, query: { flag: false } });
    });

    test("a value that cannot be cast and a missing value get Portico's messages", async () => {
      const bad = await app.request("/items/abc?flag=true", { headers: json });
      assert.equal(bad.status, 400);
      const body = (await bad.json()) as { error: { name: string; message: string; payload: unknown } };
      assert.equal(body.error.name, "Path Params Error");
      assert.equal(body.error.message, 'Path parameter "id" cannot be cast from "abc" to Integer');
      assert.deepEqual(body.error.payload, {
        path: ["id"],
        issues: [{ path: ["id"], message: 'Path parameter "id" cannot be cast from "abc" to Integer' }],
      });
      const limit = await app.request("/items/1?flag=true&limit=x", { headers: json });
      assert.equal(
        ((await limit.json()) as { error: { message: string } }).error.message,
        'Query parameter "limit" cannot be cast from "x" to Integer',
      );
      const missing = await app.request("/items/1", { headers: json });
      assert.equal(
        ((await missing.json()) as { error: { message: string } }).error.message,
        'Query parameter "flag" is missing',
      );
      const nested = await app.request("/items/1?flag=true&filter[min]=no", { headers: json });
      assert.equal(
        ((await nested.json()) as { error: { message: string } }).error.message,
        'Query parameter "filter[min]" cannot be cast from "no" to Float64',
      );
    });

    test("the library's own refusals are reported with the path, without the value they echo", async () => {
      const res = await app.request("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...json },
        body: "role=root-secret-role&pin=hunt",
      });
      assert.equal(res.status, 400);
      const text = await res.text();
      assert.doesNotMatch(text, /root-secret-role|hunt/, text);
      const body = JSON.parse(text) as {
        error: { payload: { issues: { path: string[]; message: string }[] } };
      };
      const messages = body.error.payload.issues.map((issue) => issue.message);
      assert.equal(messages.length, 2, text);
      assert.match(messages[0]!, /^Form parameter "role" is invalid: /);
      assert.match(messages[1]!, /^Form parameter "pin" is invalid: /);
      assert.doesNotMatch(text, /"code"\s*:\s*"(?:invalid|too_small)|"expected"|"received"|"data"/);
      const ok = await app.request("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "role=admin&pin=123456",
      });
      assert.deepEqual(await ok.json(), { role: "admin", pin: "123456" });
    });

    test("the OpenAPI document shows the library's JSON Schema", () => {
      const doc = openapi(app, { info: { title: library, version: "1" } });
      const get = doc.paths["/items/{id}"]!.get as {
        parameters: { name: string; required: boolean; schema: { type?: string } }[];
      };
      const byName = Object.fromEntries(get.parameters.map((p) => [p.name, p]));
      assert.equal(byName.id!.schema.type, "integer");
      assert.equal(byName.flag!.required, true);
      assert.equal(byName.limit!.required, false);
    });
  });
}
