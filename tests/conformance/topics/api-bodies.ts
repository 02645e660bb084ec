import assert from "node:assert/strict";
import { FORM_HEADERS, JSON_HEADERS, json, text } from "../helpers.ts";
import type { Case } from "../suite.ts";

/** Endpoints: JSON and form bodies, their errors and bounds. */
export const apiBodyCases: Case[] = [
  {
    name: "a required JSON body is parsed and validated",
    async run(c) {
      const [status, body] = await json(c, "/api/users", {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify({ user: { name: "Ann", email: "ann@example.com" }, extra: 1 }),
      });
      assert.equal(status, 201);
      assert.deepEqual(body, { name: "Ann", email: "ann@example.com" });
    },
  },
  {
    name: "a required JSON body is parsed whatever the Content-Type (charset allowed)",
    async run(c) {
      const payload = JSON.stringify({ user: { name: "Ann", email: "ann@example.com" } });
      for (const type of ["text/plain", "application/json; charset=utf-8"]) {
        const [status] = await json(c, "/api/users", {
          method: "POST",
          headers: { "content-type": type },
          body: payload,
        });
        assert.equal(status, 201, type);
      }
    },
  },
  {
    name: "JSON body errors: missing, malformed, not an object, invalid field",
    async run(c) {
      const post = (body: string) => text(c, "/api/users", { method: "POST", headers: JSON_HEADERS, body });
      assert.deepEqual((await post("")).slice(0, 2), [400, "400 JSON Body Error — Missing request body"]);
      assert.deepEqual((await post("{bad")).slice(0, 2), [400, "400 JSON Body Error — Malformed JSON body"]);
      assert.deepEqual((await post("[1,2]")).slice(0, 2), [
        400,
        "400 JSON Body Error — JSON body must be an object",
      ]);
      assert.deepEqual((await post('{"user":{"name":"A"}}')).slice(0, 2), [
        400,
        '400 JSON Body Error — JSON parameter "user.email" is missing',
      ]);
      const [status, body] = await post('{"user":{"name":"A","email":"nope"}}');
      assert.equal(status, 400);
      assert.match(body, /^400 JSON Body Error — JSON parameter "user.email" is invalid: /);
    },
  },
  {
    name: "JSON is not coerced: a string for an Int32 is an error",
    async run(c) {
      const [status, body] = await text(c, "/api/submit", {
        method: "POST",
        headers: JSON_HEADERS,
        body: '{"user":{"name":"A","age":"30"}}',
      });
      assert.deepEqual(
        [status, body],
        [400, '400 JSON Body Error — JSON parameter "user.age" cannot be cast from "30" to Int32'],
      );
    },
  },
  {
    name: "all issues are reported, not only the first",
    async run(c) {
      const [status, body] = await json(c, "/api/submit", {
        method: "POST",
        headers: JSON_HEADERS,
        body: '{"user":{}}',
      });
      assert.equal(status, 400);
      const issues = (body as { error: { payload: { issues: { path: string[] }[] } } }).error.payload.issues;
      assert.deepEqual(
        issues.map((issue) => issue.path),
        [
          ["user", "name"],
          ["user", "age"],
        ],
      );
    },
  },
  {
    name: "prototype keys are rejected in JSON, query and form",
    async run(c) {
      const jsonBody = '{"user":{"name":"A","email":"a@b.co"},"__proto__":{"admin":true}}';
      assert.deepEqual(
        (await text(c, "/api/users", { method: "POST", headers: JSON_HEADERS, body: jsonBody })).slice(0, 2),
        [400, '400 JSON Body Error — JSON parameter "__proto__" is not allowed'],
      );
      assert.deepEqual((await text(c, "/api/search?q=a&constructor[prototype][x]=1")).slice(0, 2), [
        400,
        '400 Query Params Error — Query parameter "constructor[prototype][x]" is not allowed',
      ]);
      const [status] = await text(c, "/api/submit", {
        method: "POST",
        headers: FORM_HEADERS,
        body: "user[__proto__][x]=1",
      });
      assert.equal(status, 400);
    },
  },
  {
    name: "hostile nesting, counts and sizes are bounded",
    async run(c) {
      const deep = `${"[".repeat(100)}${"]".repeat(100)}`;
      assert.deepEqual(
        (
          await text(c, "/api/users", { method: "POST", headers: JSON_HEADERS, body: `{"user":${deep}}` })
        ).slice(0, 2),
        [400, "400 JSON Body Error — JSON body nests deeper than the limit of 64"],
      );
      const [depthStatus, depthBody] = await text(c, "/api/search?q=a&a[b][c][d][e][f][g]=1");
      assert.equal(depthStatus, 400);
      assert.match(depthBody, /nests deeper than the limit of 5$/);
      const many = Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join("&");
      assert.deepEqual((await text(c, `/api/search?q=a&${many}`)).slice(0, 2), [
        400,
        "400 Query Params Error — Query parameter count is over the limit of 1000",
      ]);
      const [indexStatus, indexBody] = await text(c, "/api/search?q=a&tags[101]=x");
      assert.equal(indexStatus, 400);
      assert.match(indexBody, /has an array index over the limit of 100$/);
      const big = JSON.stringify({ user: { name: "x".repeat(1024 * 1024), email: "a@b.co" } });
      const [sizeStatus, sizeBody] = await text(c, "/api/users", {
        method: "POST",
        headers: JSON_HEADERS,
        body: big,
      });
      assert.deepEqual(
        [sizeStatus, sizeBody],
        [413, "413 Payload Too Large — Request body exceeds the limit of 1048576 bytes"],
      );
    },
  },
  {
    name: "form bodies: nesting, + as space, and the Content-Type picks form or JSON",
    async run(c) {
      const form = await json(c, "/api/submit", {
        method: "POST",
        headers: FORM_HEADERS,
        body: "user%5Bname%5D=Ann+Lee&user[age]=30&tags[]=x&tags[]=y",
      });
      assert.deepEqual(form.slice(0, 2), [
        200,
        { source: "form", user: { name: "Ann Lee", age: 30 }, tags: ["x", "y"] },
      ]);
      const viaJson = await json(c, "/api/submit", {
        method: "POST",
        headers: JSON_HEADERS,
        body: '{"user":{"name":"Ann","age":30}}',
      });
      assert.deepEqual(viaJson.slice(0, 2), [200, { source: "json", user: { name: "Ann", age: 30 } }]);
      const neither = await json(c, "/api/submit", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "x",
      });
      assert.deepEqual(neither.slice(0, 2), [200, { source: "none" }]);
    },
  },
  {
    name: "form errors name the bracketed path",
    async run(c) {
      const [status, body] = await text(c, "/api/submit", {
        method: "POST",
        headers: FORM_HEADERS,
        body: "user[name]=A&user[age]=old",
      });
      assert.deepEqual(
        [status, body],
        [400, '400 Form Body Error — Form parameter "user[age]" cannot be cast from "old" to Int32'],
      );
    },
  },
  {
    name: "redirect sets status and Location without stopping the endpoint",
    async run(c) {
      const [status, , res] = await text(c, "/api/redirect?to=/elsewhere");
      assert.equal(status, 302);
      assert.equal(res.headers.get("location"), "/elsewhere");
      assert.equal(res.headers.get("x-after-redirect"), "still running");
      const [bad, body] = await text(c, "/api/redirect?to=/x%0D%0ASet-Cookie:%20a=1");
      assert.deepEqual([bad, body], [400, "400 Bad Request — Redirect location must not contain CR or LF"]);
    },
  },
  {
    name: "view resolution: the last view() wins, and wins over the return value",
    async run(c) {
      assert.deepEqual((await json(c, "/api/views?mode=last"))[1], { view: "second" });
      assert.deepEqual((await json(c, "/api/views?mode=both"))[1], { view: "second" });
      assert.deepEqual((await json(c, "/api/views?mode=return"))[1], { view: "returned" });
      assert.deepEqual((await text(c, "/api/views?mode=none")).slice(0, 2), [200, ""]);
      assert.deepEqual((await text(c, "/api/views?mode=response")).slice(0, 2), [200, "plain response"]);
      const [status, body] = await text(c, "/api/views?mode=other");
      assert.equal(status, 400);
      assert.match(body, /^400 Query Params Error — Query parameter "mode" is invalid: /);
    },
  },
];
