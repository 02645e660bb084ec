// RFC 9457 Problem Details: an error as `application/problem+json` when the client asks for it, or by
// default with `errors: { format: "problem" }` — type, title, status, detail, instance (the request id),
// the declared name and the payload's fields as extension members — documented per error, and read back
// by the typed client.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { createClient } from "../../src/client/mod.ts";
import { createApp, defineEndpoint, defineError, defineRoutes, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { deref } from "../openapi/deref.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const GetOrder = defineEndpoint({
  params: { path: { id: t.int32() } },
  errors: {
    OrderNotFound: {
      code: 404,
      payload: { id: t.int32(), status: v.string() },
      message: "No such order",
      type: "https://docs.example/errors/order-not-found",
    },
  },
  call: (ep) => {
    throw new ep.errors.OrderNotFound({
      id: ep.params.path.id,
      status: "a payload field named like a member",
    });
  },
});
const api = defineRoutes({ getOrder: ["GET", "/orders/:id", GetOrder] });
const build = (format?: "problem") => {
  const app = createApp(format ? { errors: { format } } : {});
  app.mount("/", api);
  app.get("/boom", () => {
    throw new Error("secret");
  });
  return app;
};

test("Problem Details when asked for: the standard members, the name, the payload's fields beside them", async () => {
  const app = build();
  const response = await app.request("/orders/7", {
    headers: { accept: "application/problem+json", "x-request-id": "req-1" },
  });
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  assert.deepEqual(await response.json(), {
    type: "https://docs.example/errors/order-not-found",
    title: "Order Not Found",
    status: 404,
    detail: "No such order",
    instance: response.headers.get("x-request-id"),
    name: "OrderNotFound",
    id: 7,
  });
  const invalid = await app.request("/orders/x", { headers: { accept: "application/problem+json" } });
  const body = (await invalid.json()) as Json;
  assert.deepEqual(
    [invalid.status, body.type, body.name, body.issues.length],
    [400, "about:blank", "PathParamsError", 1],
  );
  const boom = await app.request("/boom", { headers: { accept: "application/problem+json" } });
  const hidden = await boom.text();
  assert.equal(boom.status, 500);
  assert.doesNotMatch(hidden, /secret/);
  assert.equal(JSON.parse(hidden).title, "Internal Server Error");
});

test('errors.format "problem": the default when Accept names no format; a client asking for JSON gets the envelope', async () => {
  const app = build("problem");
  for (const accept of [undefined, "*/*", "image/png"]) {
    const response = await app.request("/orders/7", accept ? { headers: { accept } } : {});
    assert.equal(response.headers.get("content-type"), "application/problem+json", String(accept));
    await response.arrayBuffer();
  }
  const json = await app.request("/orders/7", { headers: { accept: "application/json" } });
  assert.equal(((await json.json()) as Json).error.name, "Order Not Found");
  const text = await app.request("/orders/7", { headers: { accept: "text/plain" } });
  assert.match(await text.text(), /^404 Order Not Found/);
});

test("the document shows each error's Problem Details; the typed client reads them", async () => {
  const app = build("problem");
  const document = deref(openapi(app, { info: { title: "t", version: "1" } })) as Json;
  const schema =
    document.paths["/orders/{id}"].get.responses["404"].content["application/problem+json"].schema;
  assert.deepEqual(schema.properties.name, { const: "OrderNotFound" });
  assert.deepEqual(schema.properties.status, { const: 404 });
  assert.deepEqual(schema.properties.type, { const: "https://docs.example/errors/order-not-found" });
  assert.throws(() => defineError("Bad", 400, { type: "not a uri" }), /URI reference/);
  assert.deepEqual(Object.keys(schema.properties).sort(), [
    "detail",
    "id",
    "instance",
    "name",
    "status",
    "title",
    "type",
  ]);
  const client = createClient<typeof api>({
    baseUrl: "http://x.test",
    routes: api,
    fetch: app.fetch,
    headers: { accept: "application/problem+json" },
  });
  const missing = await client.getOrder({ path: { id: 7 } });
  if (missing.ok) assert.fail("found");
  assert.equal(missing.error.name, "OrderNotFound");
  assert.equal(missing.error.message, "No such order");
  assert.deepEqual(missing.error.payload, { id: 7 });
});
