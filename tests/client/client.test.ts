import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { api, app, document } from "../../examples/api/app.ts";
import { serve } from "../../src/adapters/node.ts";
import { createClient } from "../../src/client/mod.ts";
import { createApp, defineEndpoint, defineRoutes, defineView, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

describe("createClient over examples/api, in-process", () => {
  for (const [how, client] of [
    [
      "with the routes object",
      createClient<typeof api>({ baseUrl: "http://app/api", routes: api, fetch: app.fetch }),
    ],
    [
      "from the OpenAPI document at /openapi.json",
      createClient<typeof api>({ baseUrl: "http://app/api", fetch: app.fetch }),
    ],
    [
      "from a document given as an object",
      createClient<typeof api>({ baseUrl: "http://app/api/", spec: document, fetch: app.fetch }),
    ],
  ] as const) {
    test(`typed results and errors, ${how}`, async () => {
      const user = await client.getUser({ path: { id: 1 } });
      assert.deepEqual(user, {
        ok: true,
        status: 200,
        data: { id: 1, name: "Ada", email: "ada@example.com", joined: "2024-01-02T03:04:05.000Z" },
      });
      const missing = await client.getUser({ path: { id: 99 } });
      assert.deepEqual(missing, {
        ok: false,
        status: 404,
        error: { name: "UserNotFound", code: 404, message: "No user with id 99", payload: { id: 99 } },
      });
      const list = await client.listUsers({ query: { limit: 1, filter: { name: "Ada" } } });
      assert.ok(list.ok && list.data.users.length === 1 && list.data.limit === 1);
      const invalid = await client.listUsers({ query: { limit: 500 } });
      assert.ok(!invalid.ok && invalid.error.name === "QueryParamsError");
      assert.deepEqual(invalid.error.payload, {
        path: ["limit"],
        issues: [{ path: ["limit"], message: invalid.error.message }],
      });
      const email = `${how.length}-${Math.random()}@example.com`;
      const created = await client.createUser({ json: { user: { name: "Kim", email } } });
      assert.ok(created.ok && created.status === 201 && created.data.email === email);
      const taken = await client.createUser({ json: { user: { name: "Kim", email } } });
      assert.ok(!taken.ok && taken.error.name === "EmailTaken" && taken.error.payload.email === email);
      const crossSite = await client.createUser({
        json: { user: { name: "Kim", email } },
        headers: { "sec-fetch-site": "cross-site" },
      });
      assert.ok(
        !crossSite.ok && crossSite.error.name === "CrossSiteRequestRefused" && crossSite.status === 403,
      );
      const post = await client.createPost({
        path: { id: 1 },
        form: { post: { title: "Form", body: "sent" } },
      });
      assert.ok(post.ok && post.data.title === "Form");
      const badPath = await client.getPost({ path: { id: 1.5 } });
      assert.ok(!badPath.ok && badPath.error.name === "PathParamsError");
    });
  }

  test("an answer nobody declared is an HttpError with the status; a network failure throws", async () => {
    const client = createClient<typeof api>({
      baseUrl: "http://app/api",
      routes: api,
      fetch: () => new Response("Bad gateway", { status: 502 }),
    });
    assert.deepEqual(await client.getUser({ path: { id: 1 } }), {
      ok: false,
      status: 502,
      error: { name: "HttpError", code: 502, message: null, payload: "Bad gateway" },
    });
    const offline = createClient<typeof api>({ baseUrl: "http://127.0.0.1:9/api", routes: api });
    await assert.rejects(offline.getUser({ path: { id: 1 } }), TypeError);
    const nameless = createClient<typeof api>({ baseUrl: "http://app/api", fetch: app.fetch });
    await assert.rejects(
      (nameless as unknown as Record<string, () => Promise<unknown>>).nope!(),
      /no route named "nope"/,
    );
  });

  test("over a real Node server, with the global fetch and the document it serves", async () => {
    const server = await serve(app, { port: 0 });
    try {
      const client = createClient<typeof api>({ baseUrl: new URL("/api", server.url) });
      const user = await client.getUser({ path: { id: 1 } });
      assert.ok(user.ok && user.data.name === "Ada");
    } finally {
      await server.close();
    }
  });
});

describe("createClient: path values, wildcards and optional groups", () => {
  const Show = defineView({
    schema: v.object({ path: v.string(), query: v.string() }),
    json: (value: { path: string; query: string }) => value,
  });
  const Route = defineEndpoint({
    params: { path: { name: v.string() }, query: { n: v.optional(t.int32()), at: v.optional(t.date()) } },
    view: Show,
    call: (ep) => Show({ path: ep.request.path, query: ep.request.query }),
  });
  const Files = defineEndpoint({
    params: { path: { rest: v.string() } },
    view: Show,
    call: (ep) => Show({ path: ep.params.path.rest, query: "" }),
  });
  const Optional = defineEndpoint({
    params: { path: { id: v.string(), format: v.optional(v.string()) } },
    view: Show,
    call: (ep) => Show({ path: `${ep.params.path.id}|${ep.params.path.format ?? "-"}`, query: "" }),
  });
  const routes = defineRoutes({
    hello: ["GET", "/hello/:name", Route],
    files: ["GET", "/files/:rest+", Files],
    item: ["GET", "/items/:id(\\d+){.:format}?", Optional],
  });
  const server = createApp();
  server.mount("/", routes);
  const doc = openapi(server, { info: { title: "t", version: "1" } });

  for (const [how, options] of [
    ["routes", { routes }],
    ["document", { spec: doc }],
  ] as const) {
    test(`encodes values, keeps a wildcard's slashes, picks the optional group's form (${how})`, async () => {
      const client = createClient<typeof routes>({ baseUrl: "http://x", fetch: server.fetch, ...options });
      const hello = await client.hello({ path: { name: "a/b c?" }, query: { n: 3, at: "2024-05-06" } });
      assert.deepEqual(hello.ok && hello.data, { path: "/hello/a%2Fb%20c%3F", query: "n=3&at=2024-05-06" });
      const files = await client.files({ path: { rest: "docs/read me.txt" } });
      assert.deepEqual(files.ok && files.data, { path: "docs/read me.txt", query: "" });
      const plain = await client.item({ path: { id: "7" } });
      assert.deepEqual(plain.ok && plain.data.path, "7|-");
      const withFormat = await client.item({ path: { id: "7", format: "json" } });
      assert.deepEqual(withFormat.ok && withFormat.data.path, "7|json");
    });
  }

  test(`a path value only fills its own segments under baseUrl, never another host or path`, async () => {
    for (const [base, options] of [
      ["https://api.example/site", { routes }],
      ["https://api.example", { spec: doc }],
    ] as const) {
      const sent: string[] = [];
      const client = createClient<typeof routes>({
        baseUrl: base,
        headers: { authorization: "Bearer secret" },
        fetch: (request) => {
          sent.push(request.url);
          return server.fetch(new Request(request.url.replace(base, "http://x"), request));
        },
        ...options,
      });
      // 0.2 sent this one, Authorization included, to https://evil.example/steal.
      await assert.rejects(client.files({ path: { rest: "//evil.example/steal" } }), /empty segment/);
      await assert.rejects(client.files({ path: { rest: "../admin/secret" } }), /dot segment/);
      await assert.rejects(client.files({ path: { rest: "a/./b" } }), /dot segment/);
      await assert.rejects(client.files({ path: { rest: "a//b" } }), /empty segment/);
      await assert.rejects(client.hello({ path: { name: ".." } }), /dot segment/);
      await assert.rejects(client.hello({ path: { name: "." } }), /dot segment/);
      assert.equal(sent.length, 0);
      // Everything else is encoded into its own segment: `?`, `#`, `%`, `\`, dots inside a name.
      const odd = await client.hello({ path: { name: "..a?b#c%d\\e" } });
      assert.deepEqual(odd.ok && odd.data.path, "/hello/..a%3Fb%23c%25d%5Ce");
      const nested = await client.files({ path: { rest: "x/..y/z.." } });
      assert.deepEqual(nested.ok && nested.data.path, "x/..y/z..");
      assert.ok(
        sent.every((url) => url.startsWith(`${base}/`)),
        sent.join(" "),
      );
    }
  });

  test("a document path that climbs out of baseUrl (/api/../admin) throws before fetch is called", async () => {
    const hostile = structuredClone(doc) as { paths: Record<string, unknown> };
    hostile.paths["/api/../admin/{name}"] = hostile.paths["/hello/{name}"];
    delete hostile.paths["/hello/{name}"];
    let called = 0;
    const client = createClient<typeof routes>({
      baseUrl: "https://api.example/api",
      spec: hostile as never,
      fetch: () => {
        called++;
        return Promise.resolve(new Response("{}"));
      },
    });
    await assert.rejects(
      client.hello({ path: { name: "x" } }),
      /^TypeError: The path "\/\.\.\/admin\/x" leads outside https:\/\/api\.example\/api\/$/,
    );
    assert.equal(called, 0);
  });

  test("the document gives an optional group one path per form, with unique operationIds", () => {
    assert.equal((doc.paths["/items/{id}.{format}"]!.get as { operationId: string }).operationId, "item");
    const plain = doc.paths["/items/{id}"]!.get as { operationId: string; parameters: { schema: object }[] };
    assert.equal(plain.operationId, "item__2");
    assert.deepEqual(plain.parameters[0]!.schema, { type: "string", pattern: "^(?:\\d+)$" });
    const files = doc.paths["/files/{rest}"]!.get as { parameters: Record<string, unknown>[] };
    assert.equal(files.parameters[0]!["x-portico-multi-segment"], true);
  });
});

describe("createClient: files go as multipart/form-data", () => {
  const Upload = defineEndpoint({
    params: {
      form: t.body(
        { title: v.string(), tags: v.optional(v.array(v.string())), doc: t.file() },
        { require: true },
      ),
    },
    async call(ep) {
      const { title, tags, doc } = ep.params.form;
      return Response.json({ title, tags, name: doc.name, text: await doc.text() });
    },
  });
  const routes = defineRoutes({ upload: ["POST", "/upload", Upload] });
  const server = createApp();
  server.mount("/", routes);

  test("a File in the form makes the client send FormData; the endpoint gets it typed", async () => {
    const client = createClient<typeof routes>({ baseUrl: "http://x", routes, fetch: server.fetch });
    const res = await client.upload({
      form: {
        title: "report",
        tags: ["a", "b"],
        doc: new File(["hello file"], "r.txt", { type: "text/plain" }),
      },
    });
    assert.deepEqual(res.ok && res.data, {
      title: "report",
      tags: ["a", "b"],
      name: "r.txt",
      text: "hello file",
    });
  });

  test('a Blob is sent as a file too (the part is named "blob", as FormData names it)', async () => {
    const client = createClient<typeof routes>({ baseUrl: "http://x", routes, fetch: server.fetch });
    const res = await client.upload({ form: { title: "raw", doc: new Blob(["bytes"]) } });
    assert.deepEqual(res.ok && res.data, { title: "raw", name: "blob", text: "bytes" });
  });
});
