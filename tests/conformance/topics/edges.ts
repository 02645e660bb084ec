import assert from "node:assert/strict";
import * as v from "valibot";
import { defineEndpoint, defineView, t } from "../../../src/mod.ts";
import { Echo, expectJson, expectText, JSON_HEADERS, json, text } from "../helpers.ts";
import type { Topic } from "../suite.ts";

// One shared Response, returned to every request: it must never carry one request's headers to the next.
const SHARED = new Response(null, { status: 204 });

const Redirect = defineEndpoint({
  params: { query: { to: v.string(), local: v.optional(t.bool(), false) } },
  call(ep) {
    ep.redirect(ep.params.query.to, 302, { localOnly: ep.params.query.local });
  },
});

const ToString = defineEndpoint({
  params: {
    path: { toString: v.optional(v.string()) },
    query: { valueOf: v.optional(v.string()), hasOwnProperty: v.optional(t.int32()) },
  },
  call: (ep) => Echo({ path: { ...ep.params.path }, query: { ...ep.params.query } }),
});

const Numbers = defineEndpoint({
  params: { json: t.body({ items: v.array(t.int32()) }, { require: true }) },
  call: (ep) => Echo({ count: ep.params.json.items.length }),
});

const Yaml = defineView({ "application/yaml": (data: { a: number }): unknown => data });

/** What a careless handler or a hostile client finds at the edges (issue 9): the same on every runtime. */
export const edges: Topic = {
  name: "Edges",
  routes(app) {
    app.get("/edge/status/:code", (ctx) => {
      ctx.response.status = Number(ctx.request.pathParams.code);
      ctx.response.write("never sent");
    });
    app.get("/edge/header", (ctx) => {
      ctx.response.headers.set("x-bad", "a\u0001b");
      ctx.response.write("never sent");
    });
    app.get("/edge/header-appended", (ctx) => {
      ctx.response.headers.append("set-cookie", "a=1\u007f");
      ctx.response.write("never sent");
    });
    app.on("/edge/session", (r) => {
      r.use(async (ctx, next) => {
        ctx.response.headers.append("set-cookie", `session=${ctx.request.id}; Path=/`);
        await next();
      });
      r.get("/", () => SHARED);
    });
    app.get("/edge/redirect", Redirect);
    app.get("/edge/r3/:a-:b-:c", (ctx) => Echo(ctx.request.pathParams));
    app.get("/edge/range/:from-:to", (ctx) => Echo(ctx.request.pathParams));
    app.get("/edge/proto/:constructor?", (ctx) => Echo({ ...ctx.request.pathParams }));
    app.get("/edge/proto2/:__proto__", (ctx) => Echo({ own: Object.keys(ctx.request.pathParams) }));
    app.get("/edge/tostring/:toString?", ToString);
    app.get("/edge/user/:userId([^/]+)/*", (ctx) => Echo({ route: "wildcard", ...ctx.request.pathParams }));
    app.get("/edge/user/:id/profile", (ctx) => Echo({ route: "profile", ...ctx.request.pathParams }));
    app.get("/edge/p/:x", (ctx) => Echo({ route: "param", ...ctx.request.pathParams }));
    app.get("/edge/p/foo{/bar}?", () => Echo({ route: "foo" }));
    app.get("/edge/norm/../bar", () => Echo({ route: "normalised" }));
    app.get("/edge/dots/./x", () => Echo({ route: "dots" }));
    app.get("/edge/opt/:lang(en|fr)?", (ctx) => Echo({ route: "opt", ...ctx.request.pathParams }));
    app.post("/edge/numbers", Numbers);
    app.get("/edge/yaml", () => Yaml({ a: 1 }));
  },
  cases: [
    {
      name: "edges: a status out of range is a 500, never a crash",
      async run(c) {
        await expectText(c, "/edge/status/1000", 500, "500 Internal Server Error");
        await expectText(c, "/edge/status/99", 500, "500 Internal Server Error");
        await expectText(c, "/edge/status/201", 201, "never sent");
      },
    },
    {
      name: "edges: a header value HTTP cannot carry is a 500, never a crash",
      async run(c) {
        await expectText(c, "/edge/header", 500, "500 Internal Server Error");
        await expectText(c, "/edge/header-appended", 500, "500 Internal Server Error");
      },
    },
    {
      name: "edges: a shared Response is never modified: each client gets only its own cookie",
      async run(c) {
        for (let i = 0; i < 3; i++) {
          const res = await c.fetch("/edge/session");
          assert.equal(res.status, 204);
          assert.deepEqual(res.headers.getSetCookie(), [
            `session=${res.headers.get("x-request-id")}; Path=/`,
          ]);
        }
      },
    },
    {
      name: "edges: a redirect percent-encodes non-ASCII; a local-only one refuses other hosts",
      async run(c) {
        const to = encodeURIComponent("/café✓?q=ü");
        const res = await c.fetch(`/edge/redirect?to=${to}`);
        assert.equal(res.status, 302);
        assert.equal(res.headers.get("location"), "/caf%C3%A9%E2%9C%93?q=%C3%BC");
        for (const target of [
          "//evil.example",
          "/\\evil.example",
          "https:evil.example",
          "javascript:alert(1)",
        ]) {
          await expectText(
            c,
            `/edge/redirect?local=true&to=${encodeURIComponent(target)}`,
            400,
            "400 Bad Request — Redirect target must be a path on this site",
          );
        }
        const local = await c.fetch(`/edge/redirect?local=true&to=${encodeURIComponent("/account?x=1")}`);
        assert.equal(local.headers.get("location"), "/account?x=1");
      },
    },
    {
      name: "edges: matching is linear: patterns with several parameters in a segment take hostile paths",
      async run(c) {
        await expectText(c, `/edge/r3/${"a-".repeat(5000)}/x`, 404, "404 Not Found");
        await expectJson(c, "/edge/r3/x-y-z-w", 200, { a: "x", b: "y", c: "z-w" });
        await expectJson(c, `/edge/range/${"a-".repeat(400)}a`, 200, {
          from: "a",
          to: `${"a-".repeat(399)}a`,
        });
        // Matched at once, then refused for its length (the limit is 1000 characters).
        const [status] = await json(c, `/edge/range/${"a-".repeat(4000)}a`);
        assert.equal(status, 400);
      },
    },
    {
      name: "edges: path params, query and JSON have no inherited keys",
      async run(c) {
        await expectJson(c, "/edge/proto", 200, {});
        await expectJson(c, "/edge/proto2/x", 200, { own: ["__proto__"] });
        await expectJson(c, "/edge/tostring", 200, { path: {}, query: {} });
        await expectJson(c, "/edge/tostring/a?valueOf=b&hasOwnProperty=1", 200, {
          path: { toString: "a" },
          query: { valueOf: "b", hasOwnProperty: 1 },
        });
      },
    },
    {
      name: "edges: precedence comes from the parsed pattern",
      async run(c) {
        await expectJson(c, "/edge/user/123/profile", 200, { route: "profile", id: "123" });
        await expectJson(c, "/edge/user/123/x/y", 200, { route: "wildcard", userId: "123", 0: "x/y" });
        await expectJson(c, "/edge/p/foo", 200, { route: "foo" });
        await expectJson(c, "/edge/p/foo/bar", 200, { route: "foo" });
        await expectJson(c, "/edge/p/other", 200, { route: "param", x: "other" });
      },
    },
    {
      name: "edges: static patterns are normalised as URLs are",
      async run(c) {
        await expectJson(c, "/edge/bar", 200, { route: "normalised" });
        await expectJson(c, "/edge/dots/x", 200, { route: "dots" });
      },
    },
    {
      name: "edges: an optional parameter with a regexp may be left out, like any optional one",
      async run(c) {
        await expectJson(c, "/edge/opt", 200, { route: "opt" });
        await expectJson(c, "/edge/opt/", 200, { route: "opt" });
        await expectJson(c, "/edge/opt/fr", 200, { route: "opt", lang: "fr" });
        await expectText(c, "/edge/opt/de", 404, "404 Not Found");
      },
    },
    {
      name: "edges: prototype keys spelled with JSON escapes are refused",
      async run(c) {
        for (const body of [
          '{"user":{"name":"A","email":"a@b.co","\\u005f_proto__":{"polluted":1}}}',
          '{"user":{"name":"A","email":"a@b.co"},"a":{"\\u0063onstructor":{"\\u0070rototype":{}}}}',
        ]) {
          const [status] = await text(c, "/api/users", { method: "POST", headers: JSON_HEADERS, body });
          assert.equal(status, 400, body);
        }
      },
    },
    {
      name: "edges: a body of many wrong items answers 20 issues, marked truncated",
      async run(c) {
        const body = `{"items":[${Array.from({ length: 300_000 }, () => "{}").join(",")}]}`;
        const res = await c.fetch("/edge/numbers", {
          method: "POST",
          headers: { ...JSON_HEADERS, accept: "application/json" },
          body,
        });
        const answer = await res.text();
        assert.equal(res.status, 400);
        assert.ok(answer.length < 8192, `a short answer (${answer.length} bytes)`);
        const { payload } = (
          JSON.parse(answer) as { error: { payload: { issues: unknown[]; truncated?: boolean } } }
        ).error;
        assert.equal(payload.issues.length, 20);
        assert.equal(payload.truncated, true);
      },
    },
    {
      name: "edges: a renderer of a non-JSON type that returns an object is a 500",
      async run(c) {
        await expectText(c, "/edge/yaml", 500, "500 Internal Server Error");
      },
    },
    {
      name: "edges: responses chosen by Accept say Vary: Accept, errors included",
      async run(c) {
        const res = await c.fetch("/nowhere");
        assert.equal(res.headers.get("vary"), "Accept");
        await res.text();
      },
    },
  ],
};
