import assert from "node:assert/strict";
import type { Client } from "./client.ts";
import type { Case } from "./routing-cases.ts";

async function text(c: Client, path: string, init?: RequestInit): Promise<[number, string, Response]> {
  const res = await c.fetch(path, init);
  return [res.status, await res.text(), res];
}

async function json(c: Client, path: string, init?: RequestInit): Promise<[number, unknown, Response]> {
  const res = await c.fetch(path, { ...init, headers: { accept: "application/json", ...init?.headers } });
  const body = await res.text();
  return [res.status, body === "" ? undefined : JSON.parse(body), res];
}

const JSON_HEADERS = { "content-type": "application/json" };
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };

/** Endpoints, params, errors and views: the same on every runtime. */
export const endpointCases: Case[] = [
  {
    name: "an endpoint parses params, runs before, call and after, and renders its view",
    async run(c) {
      const [status, body, res] = await json(c, "/api/users/1?limit=5");
      assert.equal(status, 200);
      assert.deepEqual(body, { id: 1, name: "Ada" });
      assert.equal(res.headers.get("x-before"), "1");
      assert.equal(res.headers.get("x-after"), "5");
    },
  },
  {
    name: "a query param with a default takes it when absent or empty; a nilable one is undefined",
    async run(c) {
      assert.equal((await c.fetch("/api/users/1")).headers.get("x-after"), "10");
      assert.equal((await c.fetch("/api/users/1?limit=")).headers.get("x-after"), "10");
      assert.equal((await c.fetch("/api/users/1?offset=&limit=3")).status, 200);
    },
  },
  {
    name: "a path param that cannot be cast is a PathParamsError",
    async run(c) {
      assert.deepEqual(await text(c, "/api/users/abc").then(([s, b]) => [s, b]), [
        400,
        '400 Path Params Error — Path parameter "id" cannot be cast from "abc" to Int32',
      ]);
      const [, body] = await json(c, "/api/users/abc");
      assert.deepEqual(body, {
        error: {
          name: "Path Params Error",
          message: 'Path parameter "id" cannot be cast from "abc" to Int32',
          code: 400,
          payload: {
            path: ["id"],
            issues: [{ path: ["id"], message: 'Path parameter "id" cannot be cast from "abc" to Int32' }],
          },
        },
      });
    },
  },
  {
    name: "Int32 overflow, NaN and decimals are cast errors",
    async run(c) {
      for (const value of ["2147483648", "-2147483649", "NaN", "1.5", "1e3", " 1"]) {
        const [status, body] = await text(c, `/api/users/${encodeURIComponent(value)}`);
        assert.equal(status, 400, value);
        assert.match(body, /cannot be cast from ".*" to Int32$/, value);
      }
    },
  },
  {
    name: "a bad param stops the endpoint before any callback",
    async run(c) {
      const [status, , res] = await text(c, "/api/users/1?limit=abc");
      assert.equal(status, 400);
      assert.equal(res.headers.get("x-before"), null);
    },
  },
  {
    name: "a declared error renders its code and name; after callbacks are skipped",
    async run(c) {
      const [status, body, res] = await text(c, "/api/users/9");
      assert.deepEqual([status, body], [404, "404 User Not Found"]);
      assert.equal(res.headers.get("x-before"), "1");
      assert.equal(res.headers.get("x-after"), null);
    },
  },
  {
    name: "a declared error with a message, and a shared one from defineError",
    async run(c) {
      assert.deepEqual((await text(c, "/api/users/410")).slice(0, 2), [
        410,
        "410 User Gone — This user left",
      ]);
      const [, body] = await json(c, "/api/users/410");
      assert.deepEqual(body, {
        error: { name: "User Gone", message: "This user left", code: 410, payload: null },
      });
    },
  },
  {
    name: "a declared error with a payload renders it in JSON",
    async run(c) {
      const [status, body] = await json(c, "/api/users/422");
      assert.equal(status, 422);
      assert.deepEqual(body, {
        error: { name: "Invalid", message: "Invalid id", code: 422, payload: { field: "id" } },
      });
    },
  },
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
    name: "query params: arrays, groups, helpers and key aliases",
    async run(c) {
      const query =
        "q=first&q=last&tags[]=a&tags[]=b&page[size]=5&active=true&since=2024-01-02T03:04:05%2B01:00&at=86400&big=9007199254740993&ratio=-1.5e2&user_id=7&unknown=1";
      const [status, body] = await json(c, `/api/search?${query}`);
      assert.equal(status, 200);
      assert.deepEqual(body, {
        q: "last",
        tags: ["a", "b"],
        page: { size: 5, number: 1 },
        active: true,
        since: "2024-01-02T02:04:05.000Z",
        at: "1970-01-02T00:00:00.000Z",
        big: "9007199254740993",
        ratio: -150,
        userId: 7,
      });
    },
  },
  {
    name: "query arrays also come as repeated keys or indices, in index order",
    async run(c) {
      assert.deepEqual((await json(c, "/api/search?q=x&tags=a&tags=b"))[1], { q: "x", tags: ["a", "b"] });
      assert.deepEqual((await json(c, "/api/search?q=x&tags[1]=b&tags[0]=a"))[1], {
        q: "x",
        tags: ["a", "b"],
      });
      assert.deepEqual((await json(c, "/api/search?q=x&tags=solo"))[1], { q: "x", tags: ["solo"] });
      assert.deepEqual((await json(c, "/api/search?q=a+b%20c"))[1], { q: "a b c", tags: [] });
      // An empty value is "" for a string, and undefined (then the default) for other types.
      assert.deepEqual((await json(c, "/api/search?q=&tags[0]=a&tags[2]=&active=&page[size]="))[1], {
        q: "",
        tags: ["a", ""],
        page: { size: 20, number: 1 },
      });
    },
  },
  {
    name: "query errors name the bracketed path and the helper's type",
    async run(c) {
      const cases: [string, string][] = [
        ["/api/search", 'Query parameter "q" is missing'],
        ["/api/search?q=x&active=yes", 'Query parameter "active" cannot be cast from "yes" to Bool'],
        [
          "/api/search?q=x&since=2024-13-01",
          'Query parameter "since" cannot be cast from "2024-13-01" to Date',
        ],
        ["/api/search?q=x&page[size]=big", 'Query parameter "page[size]" cannot be cast from "big" to Int32'],
        [
          "/api/search?q=x&big=99999999999999999999",
          'Query parameter "big" cannot be cast from "99999999999999999999" to Int64',
        ],
        [
          "/api/search?q=x&ratio=Infinity",
          'Query parameter "ratio" cannot be cast from "Infinity" to Float64',
        ],
        ["/api/search?q=x&at=1.5", 'Query parameter "at" cannot be cast from "1.5" to Epoch'],
        ["/api/search?q=x&user_id=seven", 'Query parameter "user_id" cannot be cast from "seven" to Int32'],
      ];
      for (const [path, message] of cases) {
        assert.deepEqual(
          (await text(c, path)).slice(0, 2),
          [400, `400 Query Params Error — ${message}`],
          path,
        );
      }
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
