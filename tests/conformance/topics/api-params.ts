import assert from "node:assert/strict";
import { expectJson, expectText, json, text } from "../helpers.ts";
import type { Case } from "../suite.ts";

/** Endpoints: params from path and query, declared errors, views. */
export const apiParamCases: Case[] = [
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
    name: "views are rendered by Accept; the first renderer is the default",
    async run(c) {
      const json = await expectJson(c, "/api/users/1", 200, { id: 1, name: "Ada" });
      assert.equal(json.headers.get("vary"), "Accept");
      await expectText(c, "/api/users/1", 200, "1 Ada", { headers: { accept: "text/plain" } });
      await expectText(c, "/api/users/1", 200, "<p>1 Ada</p>", { headers: { accept: "text/html" } });
      await expectText(c, "/api/users/1", 200, '{"id":1,"name":"Ada"}', { headers: { accept: "image/png" } });
      await expectText(c, "/api/users/1", 200, "1 Ada", {
        headers: { accept: "application/json;q=0.1, text/*" },
      });
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
];
