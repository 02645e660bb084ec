// The typed client at its edges: what it sends (the method as registered, path groups filled or left
// out, nothing for `undefined`), what it refuses before sending, and how it names an error it does not
// know. Found by the mutation run (bench/MUTATION.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { callHeaders, cookieHeader, encodeForm } from "../../src/client/encode.ts";
import { createClient } from "../../src/client/mod.ts";
import { createApp, defineEndpoint, defineError, defineRoutes, defineView } from "../../src/mod.ts";

const Json = defineView({ json: (data: object) => data });
const Gone = defineError("Gone", 410);
const Echo = defineEndpoint({
  errors: { Gone },
  call: (ep) => Json({ method: ep.context.request.method }),
});
const api = defineRoutes({
  patchIt: ["PATCH", "/items/:id", Echo],
  optional: ["GET", "/opt/:id?", Echo],
  rest: ["GET", "/files/:rest*", Echo],
  some: ["GET", "/some/:rest+", Echo],
  wild: ["GET", "/wild/*", Echo],
});

const app = createApp();
app.mount("/", api);
const problem = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/problem+json" } });
const sent: string[] = [];
const client = createClient<typeof api>({
  baseUrl: "http://app/api",
  routes: api,
  fetch: (request: Request) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\/api/, "");
    return app.fetch(new Request(url, request));
  },
});

test("the method is sent as registered (PATCH is not normalised by fetch)", async () => {
  sent.length = 0;
  const answer = await client.patchIt({ path: { id: 1 } } as never);
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.deepEqual(sent, ["PATCH /api/items/1"]);
});

test("path groups: optional and zero-or-more left out without a value; several segments keep their slashes", async () => {
  sent.length = 0;
  await client.optional({ path: {} } as never);
  await client.rest({ path: {} } as never);
  await client.rest({ path: { rest: "a/b c" } } as never);
  await client.some({ path: { rest: "x/y" } } as never);
  await client.wild({ path: { 0: "p/q" } } as never);
  assert.deepEqual(sent, [
    "GET /api/opt",
    "GET /api/files",
    "GET /api/files/a/b%20c",
    "GET /api/some/x/y",
    "GET /api/wild/p/q",
  ]);
  await assert.rejects(client.some({ path: {} } as never), /Missing path value "rest" for \/some\/:rest\+/);
});

test("an error the route does not declare is an HttpError with the whole body; a declared one without payload has none", async () => {
  const foreign = createClient<typeof api>({
    baseUrl: "http://app/",
    routes: api,
    fetch: () => problem(418, { name: "Teapot", detail: "short and stout", spout: true }),
  });
  const answer = await foreign.optional({ path: {} } as never);
  assert.deepEqual(answer, {
    ok: false,
    status: 418,
    error: {
      name: "HttpError",
      code: 418,
      message: "short and stout",
      payload: { name: "Teapot", detail: "short and stout", spout: true },
    },
  });
  const declared = createClient<typeof api>({
    baseUrl: "http://app/",
    routes: api,
    fetch: () => problem(410, { type: "about:blank", title: "Gone", status: 410, name: "Gone" }),
  });
  const gone = await declared.optional({ path: {} } as never);
  assert.deepEqual(gone, {
    ok: false,
    status: 410,
    error: { name: "Gone", code: 410, message: null, payload: null },
  });
});

test("encoding: undefined is left out of queries, forms and headers; bad cookie names are refused by name", () => {
  assert.equal(String(encodeForm({ a: undefined, b: 1, c: [undefined, 2], d: { e: undefined } })), "b=1&c=2");
  assert.deepEqual([...callHeaders(undefined)], []);
  assert.deepEqual([...callHeaders([["x-a", "1"]])], [["x-a", "1"]]);
  assert.deepEqual([...callHeaders(new Headers({ "x-b": "2" }))], [["x-b", "2"]]);
  assert.deepEqual([...callHeaders({ "x-c": 3, "x-d": undefined })], [["x-c", "3"]]);
  assert.equal(cookieHeader({ a: 1, b: undefined }, "z=0"), "z=0; a=1");
  const long = `bad name ${"x".repeat(200)}`;
  assert.throws(
    () => cookieHeader({ [long]: 1 }, null),
    (error: Error) => error.message === `Invalid cookie name ${JSON.stringify(long.slice(0, 100))}`,
  );
});
