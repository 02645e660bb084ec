import assert from "node:assert/strict";
import type { Client } from "./client.ts";

/** One conformance case: a name and what it checks through a client. */
export interface Case {
  readonly name: string;
  run(client: Client): Promise<void>;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function expectText(
  client: Client,
  path: string,
  status: number,
  body: string,
  init?: RequestInit,
): Promise<Response> {
  const res = await client.fetch(path, init);
  assert.equal(await res.text(), body, `${init?.method ?? "GET"} ${path} body`);
  assert.equal(res.status, status, `${init?.method ?? "GET"} ${path} status`);
  return res;
}

async function expectJson(
  client: Client,
  path: string,
  status: number,
  body: unknown,
  init?: RequestInit,
): Promise<Response> {
  const res = await client.fetch(path, {
    ...init,
    headers: { accept: "application/json", ...init?.headers },
  });
  const text = await res.text();
  assert.equal(res.status, status, `${path} status (body ${text})`);
  assert.deepEqual(JSON.parse(text), body, `${path} body`);
  return res;
}

/** Routing, the request cycle, the rescuer and middleware: the same on every runtime. */
export const routingCases: Case[] = [
  {
    name: "a block route writes its body as text with a request id",
    async run(c) {
      const res = await expectText(c, "/", 200, "Hello World");
      assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
      assert.match(res.headers.get("x-request-id") ?? "", UUID_V4);
    },
  },
  {
    name: "an empty block answers 200 with an empty body; other return values are ignored",
    async run(c) {
      await expectText(c, "/empty", 200, "");
      await expectText(c, "/ignored", 200, "");
    },
  },
  {
    name: "write() appends to the body",
    async run(c) {
      await expectText(c, "/written", 200, "ab");
    },
  },
  {
    name: "a returned Response is sent as is, with the request id added",
    async run(c) {
      const res = await expectText(c, "/raw", 203, "raw body");
      assert.equal(res.headers.get("x-raw"), "1");
      assert.match(res.headers.get("x-request-id") ?? "", UUID_V4);
    },
  },
  {
    name: "a path parameter matches one segment",
    async run(c) {
      await expectJson(c, "/users/42", 200, { route: "user", id: "42" });
      await expectJson(c, "/users/1/posts/2", 200, { id: "1", post: "2" });
    },
  },
  {
    name: "a request with a trailing slash matches the route without one",
    async run(c) {
      await expectJson(c, "/users/42/", 200, { route: "user", id: "42" });
      await expectText(c, "/report.json/", 200, "report");
    },
  },
  {
    name: "a mandatory parameter does not match an empty segment",
    async run(c) {
      await expectText(c, "/first/", 404, "404 Not Found");
      // `/users/` is `/users`, which exists for POST only.
      const res = await expectText(c, "/users/", 405, "405 Method Not Allowed");
      assert.equal(res.headers.get("allow"), "POST, OPTIONS");
    },
  },
  {
    name: "static segments beat parameters, whatever the registration order",
    async run(c) {
      await expectText(c, "/users/new", 200, "new user form");
    },
  },
  {
    name: "otherwise the first registered route wins",
    async run(c) {
      await expectJson(c, "/first/7", 200, { route: "first", a: "7" });
    },
  },
  {
    name: "path parameters are percent-decoded once, after matching",
    async run(c) {
      await expectJson(c, "/users/a%2Fb", 200, { route: "user", id: "a/b" });
      await expectJson(c, "/users/%2541", 200, { route: "user", id: "%41" });
      await expectJson(c, "/users/caf%C3%A9", 200, { route: "user", id: "café" });
    },
  },
  {
    name: "a malformed percent-encoding in a path parameter is a 400",
    async run(c) {
      await expectText(
        c,
        "/users/%E0%A4%A",
        400,
        '400 Path Params Error — Path parameter "id" has malformed percent-encoding "%E0%A4%A"',
      );
    },
  },
  {
    name: "a regex parameter only matches what its regex allows",
    async run(c) {
      await expectJson(c, "/digits/123", 200, { route: "digits", id: "123" });
      await expectJson(c, "/digits/abc", 200, { route: "slug", slug: "abc" });
    },
  },
  {
    name: "an optional parameter may be left out",
    async run(c) {
      await expectJson(c, "/lang/docs", 200, { route: "docs" });
      await expectJson(c, "/lang/en/docs", 200, { route: "docs", lang: "en" });
      await expectJson(c, "/opt", 200, { route: "opt" });
      await expectJson(c, "/opt/x", 200, { route: "opt", name: "x" });
    },
  },
  {
    name: "a wildcard takes the rest of the path",
    async run(c) {
      await expectJson(c, "/files/a/b/c.txt", 200, { route: "files", 0: "a/b/c.txt" });
      await expectText(c, "/files", 404, "404 Not Found");
    },
  },
  {
    name: "a dot in a static route is a dot",
    async run(c) {
      await expectText(c, "/report.json", 200, "report");
      await expectText(c, "/reportxjson", 404, "404 Not Found");
    },
  },
  {
    name: "route() serves several methods; other verbs get 405 with Allow",
    async run(c) {
      await expectText(c, "/multi", 200, "GET");
      await expectText(c, "/multi", 200, "POST", { method: "POST" });
      const res = await expectText(c, "/multi", 405, "405 Method Not Allowed", { method: "PUT" });
      assert.equal(res.headers.get("allow"), "GET, HEAD, POST, OPTIONS");
    },
  },
  {
    name: "all() serves every method",
    async run(c) {
      await expectText(c, "/any", 200, "any PATCH", { method: "PATCH" });
      await expectText(c, "/any", 200, "any DELETE", { method: "DELETE" });
    },
  },
  {
    name: "put and delete routes; GET on them is a 405",
    async run(c) {
      await expectText(c, "/items/5", 200, "put 5", { method: "PUT" });
      await expectText(c, "/items/5", 204, "", { method: "DELETE" });
      const res = await expectText(c, "/items/5", 405, "405 Method Not Allowed");
      assert.equal(res.headers.get("allow"), "PUT, DELETE, OPTIONS");
    },
  },
  {
    name: "HEAD is answered from GET without a body",
    async run(c) {
      const res = await expectText(c, "/users/1", 200, "", { method: "HEAD" });
      assert.equal(res.headers.get("content-type"), "application/json");
      assert.match(res.headers.get("x-request-id") ?? "", UUID_V4);
    },
  },
  {
    name: "a HEAD route wins over GET",
    async run(c) {
      const res = await expectText(c, "/probe", 200, "", { method: "HEAD" });
      assert.equal(res.headers.get("x-probe"), "head");
      await expectText(c, "/probe", 200, "probe body");
    },
  },
  {
    name: "OPTIONS without a route answers 204 with Allow; an OPTIONS route wins",
    async run(c) {
      const res = await expectText(c, "/users/1", 204, "", { method: "OPTIONS" });
      assert.equal(res.headers.get("allow"), "GET, HEAD, OPTIONS");
      await expectText(c, "/custom-options", 200, "custom", { method: "OPTIONS" });
      await expectText(c, "/nowhere", 404, "404 Not Found", { method: "OPTIONS" });
    },
  },
  {
    name: "a websocket-only path without an upgrade is a 426",
    async run(c) {
      const res = await expectText(c, "/ws/echo", 426, "426 Upgrade Required");
      if (c.keepsHopByHopHeaders) assert.equal(res.headers.get("upgrade"), "websocket");
    },
  },
  {
    name: "no route is a 404 in text, JSON or HTML by Accept, with the request id",
    async run(c) {
      const text = await expectText(c, "/nowhere", 404, "404 Not Found");
      assert.match(text.headers.get("x-request-id") ?? "", UUID_V4);
      await expectJson(c, "/nowhere", 404, {
        error: { name: "Not Found", message: null, code: 404, payload: null },
      });
      const html = await c.fetch("/nowhere", { headers: { accept: "text/html" } });
      const page = await html.text();
      assert.equal(html.headers.get("content-type"), "text/html; charset=utf-8");
      assert.match(page, /<h1>404 Not Found<\/h1>/);
      assert.ok(
        page.includes(html.headers.get("x-request-id") ?? "missing"),
        "the page shows the request id",
      );
    },
  },
  {
    name: "Accept q-values choose the error format",
    async run(c) {
      const res = await c.fetch("/nowhere", {
        headers: { accept: "text/html;q=0.5, application/json;q=0.9" },
      });
      assert.equal(res.headers.get("content-type"), "application/json");
      await res.text();
    },
  },
  {
    name: "an unexpected error is a 500 with no detail",
    async run(c) {
      const res = await expectText(c, "/boom", 500, "500 Internal Server Error");
      assert.equal(res.headers.get("x-saw-error"), "1");
      await expectJson(c, "/boom", 500, {
        error: { name: "Internal Server Error", message: null, code: 500, payload: null },
      });
    },
  },
  {
    name: "a failing renderer is a 500, not a crash",
    async run(c) {
      await expectText(c, "/bad-view", 500, "500 Internal Server Error");
    },
  },
  {
    name: "the context carries method, path, raw query and the standard Request",
    async run(c) {
      const again = await c.fetch("/context?x=1&y=%20", { headers: { accept: "application/json" } });
      const body = (await again.json()) as Record<string, unknown>;
      assert.equal(body.id, again.headers.get("x-request-id"));
      assert.deepEqual(
        { ...body, id: "" },
        { method: "GET", path: "/context", query: "x=1&y=%20", id: "", headers: true, raw: true },
      );
    },
  },
  {
    name: "several Set-Cookie headers stay apart",
    async run(c) {
      const res = await c.fetch("/cookies");
      assert.deepEqual(res.headers.getSetCookie(), ["a=1; Path=/", "b=2; Path=/"]);
    },
  },
  {
    name: "a streamed body arrives whole",
    async run(c) {
      await expectText(c, "/stream", 200, "chunk0;chunk1;chunk2;");
    },
  },
  {
    name: "a request body is readable from ctx.request.raw",
    async run(c) {
      await expectText(c, "/read-body", 200, "read 11", { method: "POST", body: "hello world" });
    },
  },
  {
    name: "app middleware runs around every request, 404s included",
    async run(c) {
      assert.equal((await c.fetch("/")).headers.get("x-app-middleware"), "1");
      assert.equal((await c.fetch("/nowhere")).headers.get("x-app-middleware"), "1");
    },
  },
  {
    name: "namespaces nest prefixes and their middleware",
    async run(c) {
      const root = await expectText(c, "/ns", 200, "ns root");
      assert.equal(root.headers.get("x-ns"), "outer");
      const inner = await expectJson(c, "/ns/inner/7", 200, { route: "inner", x: "7" });
      assert.equal(inner.headers.get("x-ns"), "outer");
    },
  },
  {
    name: "middleware may answer with a Response; headers set before are kept",
    async run(c) {
      const res = await expectText(c, "/ns/inner/7?deny=1", 403, "denied");
      assert.equal(res.headers.get("x-ns"), "outer");
      assert.equal(res.headers.get("x-app-middleware"), "1");
    },
  },
  {
    name: "a mounted router keeps its routes and middleware under the prefix",
    async run(c) {
      const home = await expectText(c, "/admin", 200, "admin home");
      assert.equal(home.headers.get("x-admin"), "1");
      await expectJson(c, "/admin/users/3", 200, { route: "admin-user", id: "3" });
      assert.equal((await c.fetch("/ns")).headers.get("x-admin"), null);
    },
  },
  {
    name: "every request gets a fresh UUID v4; an incoming id is ignored by default",
    async run(c) {
      const a = await c.fetch("/", { headers: { "x-request-id": "abc" } });
      const b = await c.fetch("/");
      const idA = a.headers.get("x-request-id") ?? "";
      assert.match(idA, UUID_V4);
      assert.notEqual(idA, b.headers.get("x-request-id"));
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
];
