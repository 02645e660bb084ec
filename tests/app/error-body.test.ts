// createApp({ errors: { body, paramsStatus } }): an app's own JSON error body (an API spec's, here
// RealWorld's `{ errors: { body: [...] } }`) and another status for parameter errors; what the other
// formats keep; the `Portico-Error` header; the OpenAPI document (one schema, the names beside it); and
// the typed client, from the routes and from the document, still telling the declared errors apart.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { createClient } from "../../src/client/mod.ts";
import { createApp, defineEndpoint, defineErrorBody, defineRoutes, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { deref } from "../openapi/deref.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const conduit = defineErrorBody({
  name: "GenericErrorModel",
  schema: v.object({ errors: v.object({ body: v.array(v.string()) }) }),
  // Each issue where it is, as "user.email: …"; an error without issues, its message or its words.
  render: ({ issues, message, title }) => ({
    errors: {
      body: issues.length === 0 ? [message ?? title] : issues.map((i) => `${i.path.join(".")}: ${i.message}`),
    },
  }),
});

const Register = defineEndpoint({
  params: {
    json: t.body(
      {
        user: v.object({
          email: v.pipe(v.string(), v.email()),
          password: v.pipe(v.string(), v.minLength(8)),
        }),
      },
      { require: true },
    ),
  },
  errors: {
    EmailTaken: { code: 422, message: "email has already been taken" },
    Locked: { code: 423, payload: { until: t.int32() } },
  },
  call: (ep) => {
    if (ep.params.json.user.email === "taken@x.test") throw new ep.errors.EmailTaken();
    if (ep.params.json.user.email === "locked@x.test") throw new ep.errors.Locked({ until: 9 });
    return Response.json({ ok: true }, { status: 201 });
  },
});
const api = defineRoutes({ register: ["POST", "/users", Register] });

function build() {
  const app = createApp({ errors: { format: "json", body: conduit, paramsStatus: 422 } });
  app.mount("/api", api);
  app.get("/boom", () => {
    throw new Error("secret detail");
  });
  return app;
}
const post = (app: ReturnType<typeof build>, body: string, accept?: string) =>
  app.request("/api/users", {
    method: "POST",
    headers: { "content-type": "application/json", ...(accept ? { accept } : {}) },
    body,
  });

test("errors.body: declared errors, parameter errors (at paramsStatus) and unexpected ones in the app's body", async () => {
  const app = build();
  const taken = await post(app, JSON.stringify({ user: { email: "taken@x.test", password: "long-enough" } }));
  assert.equal(taken.status, 422);
  assert.equal(taken.headers.get("portico-error"), "EmailTaken");
  assert.deepEqual(await taken.json(), { errors: { body: ["email has already been taken"] } });

  const invalid = await post(app, JSON.stringify({ user: { email: "nope", password: "short" } }));
  assert.equal(invalid.status, 422);
  assert.equal(invalid.headers.get("portico-error"), "JSONBodyError");
  const { errors } = (await invalid.json()) as Json;
  assert.equal(errors.body.length, 2);
  assert.match(errors.body[0], /email/i);

  const malformed = await post(app, "{");
  assert.equal(malformed.status, 422);
  assert.equal(((await malformed.json()) as Json).errors.body.length, 1);

  const boom = await app.request("/boom");
  assert.equal(boom.status, 500);
  assert.equal(boom.headers.get("portico-error"), "InternalServerError");
  const text = await boom.text();
  assert.deepEqual(JSON.parse(text), { errors: { body: ["Internal Server Error"] } });
  assert.doesNotMatch(text, /secret/);

  // Errors the framework answers itself keep their status, in the app's body.
  const unknown = await app.request("/api/nowhere");
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { errors: { body: ["Not Found"] } });
});

test("errors.body: a client that asks for text or HTML gets it, at the same status", async () => {
  const app = build();
  const asText = await post(app, "{}", "text/plain");
  assert.equal(asText.status, 422);
  assert.match(await asText.text(), /^422 JSON Body Error — /);
  const asHtml = await post(app, "{}", "text/html");
  assert.equal(asHtml.status, 422);
  assert.match(await asHtml.text(), /<h1>422 JSON Body Error<\/h1>/);
});

test("errors.body: options are checked", () => {
  assert.throws(() => createApp({ errors: { paramsStatus: 200 } }), /4xx status/);
  assert.throws(() => createApp({ errors: { body: {} as never } }), /defineErrorBody/);
  assert.throws(
    () => defineErrorBody({ name: "a b", schema: v.string(), render: () => "" }),
    /component name/,
  );
});

test("errors.body: the document shows the app's body once, the names beside it, parameter errors at 422", async () => {
  const document = openapi(build(), { info: { title: "t", version: "1" } }) as Json;
  assert.deepEqual(document.components.schemas.GenericErrorModel, {
    type: "object",
    properties: {
      errors: {
        type: "object",
        properties: { body: { type: "array", items: { type: "string" } } },
        required: ["body"],
      },
    },
    required: ["errors"],
  });
  const responses = (deref(document) as Json).paths["/api/users"].post.responses;
  assert.deepEqual(Object.keys(responses).sort(), ["200", "413", "422", "423"]);
  const unprocessable = responses["422"];
  assert.deepEqual(unprocessable["x-portico-errors"], ["JSONBodyError", "EmailTaken"]);
  assert.deepEqual(
    document.components.responses.JSONBodyErrorOrEmailTaken.content["application/json"].schema,
    { $ref: "#/components/schemas/GenericErrorModel" },
  );
  assert.ok(unprocessable.headers["Portico-Error"]);
  // Without a body of its own, an app documents Portico's envelope and 400 as before.
  const plain = createApp();
  plain.mount("/api", api);
  const before = openapi(plain, { info: { title: "t", version: "1" } }) as Json;
  assert.ok((deref(before) as Json).paths["/api/users"].post.responses["400"]);
});

test("errors.body: the typed client tells the declared errors apart, from the routes and from the document", async () => {
  const app = build();
  const document = openapi(app, { info: { title: "t", version: "1" } });
  const fromRoutes = createClient<typeof api>({
    baseUrl: "http://x.test/api",
    routes: api,
    fetch: app.fetch,
  });
  const fromDocument = createClient<typeof api>({
    baseUrl: "http://x.test/api",
    spec: document,
    fetch: app.fetch,
  });
  for (const client of [fromRoutes, fromDocument]) {
    const taken = await client.register({
      json: { user: { email: "taken@x.test", password: "long-enough" } },
    });
    assert.equal(taken.ok, false);
    if (!taken.ok) {
      assert.equal(taken.status, 422);
      assert.equal(taken.error.name, "EmailTaken");
      assert.deepEqual(taken.error.payload, { errors: { body: ["email has already been taken"] } });
    }
    const invalid = await client.register({ json: { user: { email: "nope", password: "long-enough" } } });
    if (!invalid.ok) assert.equal(invalid.error.name, "JSONBodyError");
    else assert.fail("an invalid email was accepted");
    const locked = await client.register({
      json: { user: { email: "locked@x.test", password: "long-enough" } },
    });
    if (!locked.ok) assert.equal(locked.error.name, "Locked");
    else assert.fail("locked was accepted");
  }
});

test("on(prefix, build, { errors }): a namespace renders its routes' errors its own way, over the app's", async () => {
  const app = createApp();
  app.on("/api", (r) => r.mount("/", api), { errors: { format: "json", body: conduit, paramsStatus: 422 } });
  app.get("/page", () => {
    throw new Error("hidden");
  });
  const inApi = await post(app as never, "{");
  assert.equal(inApi.status, 422);
  assert.deepEqual(Object.keys((await inApi.json()) as Json), ["errors"]);
  // Outside it, the app's own rendering: text by default, Portico's envelope in JSON, 400.
  const page = await app.request("/page");
  assert.deepEqual(
    [page.status, page.headers.get("content-type"), page.headers.get("portico-error")],
    [500, "text/plain; charset=utf-8", null],
  );
  await page.arrayBuffer();
  const outside = createApp();
  outside.mount("/api", api);
  assert.equal((await post(outside as never, "{")).status, 400);
  // The document follows each route's rendering.
  const document = openapi(app, { info: { title: "t", version: "1" } }) as Json;
  assert.ok(document.paths["/api/users"].post.responses["422"]);
  assert.ok(document.components.schemas.GenericErrorModel);
  assert.throws(() => createApp().on("/x", () => {}, { errors: { paramsStatus: 99 } }), /4xx status/);
});
