// What routes, namespaces, endpoints and middleware say of themselves in the document beyond params,
// views and errors: words, tags, deprecated, hidden; security schemes and each operation's
// `security`; response headers and other answers (a redirect, a 304); reusable components.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import * as v from "valibot";
import { declaring, etag } from "../../src/middleware/mod.ts";
import {
  createApp,
  createRouter,
  defineEndpoint,
  defineError,
  defineRoutes,
  defineView,
} from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { deref } from "./deref.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;
const info = { title: "t", version: "1" };

async function valid(document: object): Promise<void> {
  const result = await new Validator().validate(structuredClone(document) as never);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
}

const Unauthorized = defineError("Unauthorized", 401, { message: "Credentials are missing or wrong" });
// An app's own cookie authentication, declared as an apiKey scheme in a cookie.
const sessionAuth = (optional: boolean) =>
  declaring(
    (ctx, next) => {
      const signedIn = ctx.request.header("cookie")?.includes("sid=valid") ?? false;
      if (!signedIn && !optional) throw new Unauthorized();
      return next();
    },
    {
      errors: { Unauthorized },
      security: { schemes: { session: { type: "apiKey", in: "cookie", name: "sid" } }, optional },
    },
  );
const apiKey = declaring((_ctx, next) => next(), {
  security: { schemes: { key: { type: "apiKey", in: "header", name: "x-api-key" } } },
});

const Item = defineView({ schema: v.object({ id: v.number() }), json: (id: number) => ({ id }) });
const GetItem = defineEndpoint({
  doc: { description: "Reads **one** item.", tags: ["items"] },
  view: Item,
  call: () => Item(1),
});
const OldItem = defineEndpoint({
  doc: {
    deprecated: true,
    responses: { 301: { description: "Moved", headers: { Location: "The item's new address" } } },
  },
  call: (ep) => ep.redirect("/items/1", 301),
});

function build() {
  const app = createApp();
  app.on(
    "/shop",
    (r) => {
      r.use(sessionAuth(false));
      r.get("/items/:id", GetItem, { name: "getItem" });
      r.get("/old/:id", OldItem, { name: "getOldItem" });
      r.get("/internal", () => new Response("secret"), { doc: { hidden: true } });
      r.get(
        "/events",
        () => new Response("data: 1\n\n", { headers: { "content-type": "text/event-stream" } }),
        {
          name: "streamEvents",
          doc: { responses: { 200: { description: "The events", mediaTypes: ["text/event-stream"] } } },
        },
      );
    },
    { doc: { tags: ["shop"] } },
  );
  app.on("/public", (r) => {
    r.use(sessionAuth(true));
    r.use(apiKey);
    r.get("/home", () => new Response("home"), { name: "getHOMEPage" });
  });
  app.mount(
    "/admin",
    createRouter((r) =>
      r
        .doc({ tags: ["admin"], deprecated: true })
        .get("/", () => new Response("admin"), { name: "adminHome" }),
    ),
  );
  const cached = defineRoutes(
    { getCached: ["GET", "/cached", GetItem] },
    { use: [etag()], doc: { tags: ["cache"] } },
  );
  app.mount("/", cached);
  return app;
}

test("words, tags, deprecated and hidden come from routes, namespaces, routers and endpoints", async () => {
  const doc: Json = openapi(build(), { info });
  const item = doc.paths["/shop/items/{id}"].get;
  assert.equal(item.summary, "Get item");
  assert.equal(item.description, "Reads **one** item.");
  assert.deepEqual(item.tags, ["shop", "items"]);
  assert.equal(doc.paths["/public/home"].get.summary, "Get HOME page");
  assert.equal(doc.paths["/shop/old/{id}"].get.deprecated, true);
  assert.equal(item.deprecated, undefined);
  assert.deepEqual(doc.paths["/admin"].get.tags, ["admin"]);
  assert.equal(doc.paths["/admin"].get.deprecated, true);
  assert.equal(doc.paths["/shop/internal"], undefined, "a hidden route is left out");
  assert.deepEqual(
    doc.tags.map((tag: Json) => tag.name),
    ["shop", "items", "admin", "cache"],
  );
  await valid(doc);
});

test("middleware declares security schemes: required, optional, several together", async () => {
  const doc: Json = deref(openapi(build(), { info }));
  assert.deepEqual(doc.components.securitySchemes, {
    session: { type: "apiKey", in: "cookie", name: "sid" },
    key: { type: "apiKey", in: "header", name: "x-api-key" },
  });
  assert.deepEqual(doc.paths["/shop/items/{id}"].get.security, [{ session: [] }]);
  // Optional session beside a required key: with both, or with the key alone.
  assert.deepEqual(doc.paths["/public/home"].get.security, [{ session: [], key: [] }, { key: [] }]);
  assert.equal(doc.paths["/admin"].get.security, undefined);
  assert.equal(doc.paths["/shop/items/{id}"].get.responses["401"].description, "Unauthorized");
  // And the server does as documented.
  const app = build();
  assert.equal((await app.request("/shop/items/1")).status, 401);
  assert.equal((await app.request("/shop/items/1", { headers: { cookie: "sid=valid" } })).status, 200);
  assert.equal((await app.request("/public/home")).status, 200);
});

test("answers besides the view: a redirect with Location, a stream, etag()'s 304 and header, the request id", async () => {
  const app = build();
  const raw: Json = openapi(app, { info });
  const doc: Json = deref(raw);
  const old = doc.paths["/shop/old/{id}"].get.responses;
  assert.equal(old["301"].description, "Moved");
  assert.equal(old["200"], undefined, "a redirecting endpoint without a view is not documented as a 200");
  assert.equal(old["301"].headers.Location.description, "The item's new address");
  const moved = await app.request("/shop/old/1", { headers: { cookie: "sid=valid" } });
  assert.equal(moved.status, 301);
  assert.equal(moved.headers.get("location"), "/items/1");

  const events = doc.paths["/shop/events"].get.responses["200"];
  assert.deepEqual(Object.keys(events.content), ["text/event-stream"]);

  const cached = doc.paths["/cached"].get.responses;
  assert.ok(cached["200"].headers.ETag);
  assert.ok(cached["304"].headers.ETag);
  const first = await app.request("/cached");
  const tag = first.headers.get("etag")!;
  const again = await app.request("/cached", { headers: { "if-none-match": tag } });
  assert.equal(again.status, 304);

  // Every answer documents the request id header, through one component.
  for (const [code, reference] of Object.entries(raw.paths["/cached"].get.responses) as [string, Json][]) {
    const response = reference.$ref ? raw.components.responses[reference.$ref.split("/").pop()] : reference;
    assert.deepEqual(response.headers["x-request-id"], { $ref: "#/components/headers/x-request-id" }, code);
  }
  assert.equal(raw.components.headers["x-request-id"].required, true);
  assert.ok(again.headers.get("x-request-id"));
  await valid(doc);
});

test("each error envelope is written once, under components, and referenced", async () => {
  const doc: Json = openapi(build(), { info });
  const answer = doc.paths["/shop/items/{id}"].get.responses["401"];
  assert.deepEqual(answer, { $ref: "#/components/responses/Unauthorized" });
  const unauthorized = doc.components.responses.Unauthorized.content["application/json"].schema;
  assert.deepEqual(unauthorized, { $ref: "#/components/schemas/Unauthorized" });
  assert.equal(doc.components.schemas.Unauthorized.properties.error.properties.code.const, 401);
  // Two errors of one name but different shapes keep both, under two names.
  const app = createApp();
  app.get("/a", defineEndpoint({ errors: { Gone: 410 }, call: () => {} }));
  app.get(
    "/b",
    defineEndpoint({ errors: { Gone: { code: 404, payload: { id: v.number() } } }, call: () => {} }),
  );
  const two: Json = openapi(app, { info });
  assert.deepEqual(two.components.responses.Gone.content["application/json"].schema, {
    $ref: "#/components/schemas/Gone",
  });
  assert.deepEqual(two.components.responses.Gone2.content["application/json"].schema, {
    $ref: "#/components/schemas/Gone2",
  });
  assert.equal(two.paths["/b"].get.responses["404"].$ref, "#/components/responses/Gone2");
  await valid(two);
});

test("a file field's accepted types and size limit, and a schema's examples, are in the document", async () => {
  const { document } = await import("./kitchen-sink.ts");
  const body = (document as Json).paths["/shop/items"].post.requestBody.content["multipart/form-data"];
  assert.deepEqual(body.encoding.photo, { contentType: "image/png, image/jpeg" });
  assert.deepEqual(body.encoding.more, { contentType: "image/*" });
  assert.match(body.schema.properties.photo.description, /At most 1048576 bytes/);
  assert.equal(body.encoding.item.style, "deepObject");
  const item = (document as Json).paths["/shop/items/{id}"].get.responses["200"].content["application/json"];
  assert.deepEqual(item.schema.properties.name.examples, ["lamp"]);
});

test("the body limit's 413 is documented on every route with a JSON or form body, and only there", async () => {
  const app = createApp();
  app.post("/json", defineEndpoint({ params: { json: { a: v.string() } }, call: () => {} }));
  app.post("/form", defineEndpoint({ params: { form: { a: v.string() } }, call: () => {} }));
  app.get("/query", defineEndpoint({ params: { query: { a: v.string() } }, call: () => {} }));
  const doc: Json = openapi(app, { info });
  assert.equal(doc.paths["/json"].post.responses["413"]?.$ref, "#/components/responses/PayloadTooLarge");
  assert.equal(doc.paths["/form"].post.responses["413"]?.$ref, "#/components/responses/PayloadTooLarge");
  assert.equal(doc.paths["/query"].get.responses["413"], undefined);
  await valid(doc);
});
