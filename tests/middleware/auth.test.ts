// bearerAuth() and basicAuth(): credentials from `Authorization`, a declared 401 with the challenge
// `WWW-Authenticate` names, what the OpenAPI document says of them, and the typed client's error union.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { basicAuth, bearerAuth } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineRoutes } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const Hello = defineEndpoint({ call: (ep) => Response.json({ hello: ep.context.request.path }) });

function build() {
  const app = createApp();
  app.on("/tokens", (r) => {
    r.use(bearerAuth({ token: ["first-token", "second-token"] }));
    r.get("/", Hello, { name: "tokens" });
  });
  app.on("/checked", (r) => {
    r.use(
      bearerAuth({
        verify: async (token, ctx) => token === `for-${ctx.request.path.split("/")[2]}`,
        realm: "shop",
      }),
    );
    r.get("/:who", Hello);
  });
  app.on("/admin", (r) => {
    r.use(basicAuth({ username: "admin", password: "pässword:1" }));
    r.get("/", Hello, { name: "admin" });
  });
  return app;
}
const basic = (text: string) => `Basic ${Buffer.from(text, "utf8").toString("base64")}`;

test("bearerAuth: one of the tokens passes; none, another scheme or a wrong token is a 401 with its challenge", async () => {
  const app = build();
  for (const token of ["first-token", "second-token"]) {
    assert.equal(
      (await app.request("/tokens", { headers: { authorization: `Bearer ${token}` } })).status,
      200,
    );
  }
  assert.equal(
    (await app.request("/tokens", { headers: { authorization: "bearer first-token" } })).status,
    200,
  );
  const missing = await app.request("/tokens", { headers: { accept: "application/json" } });
  assert.equal(missing.status, 401);
  assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="api"');
  assert.equal(((await missing.json()) as Json).error.name, "Unauthorized");
  for (const authorization of [
    "Bearer wrong",
    "Bearer first-token-and-more",
    "Basic Zmlyc3QtdG9rZW4=",
    "Bearer",
  ]) {
    const refused = await app.request("/tokens", { headers: { authorization } });
    assert.equal(refused.status, 401, authorization);
    assert.match(refused.headers.get("www-authenticate")!, /^Bearer realm="api"/);
  }
  const wrong = await app.request("/tokens", { headers: { authorization: "Bearer wrong" } });
  assert.equal(wrong.headers.get("www-authenticate"), 'Bearer realm="api", error="invalid_token"');
  assert.ok(!(await wrong.text()).includes("wrong"), "the token is never echoed");
});

test("bearerAuth: a verify function decides, with the context; its realm is named", async () => {
  const app = build();
  assert.equal(
    (await app.request("/checked/ada", { headers: { authorization: "Bearer for-ada" } })).status,
    200,
  );
  const refused = await app.request("/checked/ada", { headers: { authorization: "Bearer for-lin" } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("www-authenticate"), 'Bearer realm="shop", error="invalid_token"');
});

test("basicAuth: UTF-8 user:password (a colon in the password), anything else a 401", async () => {
  const app = build();
  assert.equal(
    (await app.request("/admin", { headers: { authorization: basic("admin:pässword:1") } })).status,
    200,
  );
  for (const authorization of [
    basic("admin:wrong"),
    basic("Admin:pässword:1"),
    basic("admin"),
    "Basic %%%",
    "Basic /w==",
    "Bearer x",
  ]) {
    const refused = await app.request("/admin", { headers: { authorization } });
    assert.equal(refused.status, 401, authorization);
    assert.equal(refused.headers.get("www-authenticate"), 'Basic realm="api", charset="UTF-8"');
  }
  // A verify function of one's own gets both parts, and the context.
  const checked = createApp();
  checked.use(
    basicAuth({ verify: async (user, password, ctx) => user === "lin" && password === ctx.request.path }),
  );
  checked.get("/secret", Hello);
  assert.equal(
    (await checked.request("/secret", { headers: { authorization: basic("lin:/secret") } })).status,
    200,
  );
  assert.equal(
    (await checked.request("/secret", { headers: { authorization: basic("lin:/other") } })).status,
    401,
  );
  assert.throws(() => basicAuth({ username: "", password: "x" }), /must not be empty/);
  assert.throws(() => bearerAuth({ token: [] }), /at least one token/);
});

test("the document declares their schemes and each route's security and 401; the client names the 401", async () => {
  const app = build();
  const doc: Json = openapi(app, { info: { title: "t", version: "1" } });
  assert.deepEqual(doc.components.securitySchemes, {
    bearerAuth: { type: "http", scheme: "bearer" },
    basicAuth: { type: "http", scheme: "basic" },
  });
  assert.deepEqual(doc.paths["/tokens"].get.security, [{ bearerAuth: [] }]);
  assert.deepEqual(doc.paths["/admin"].get.security, [{ basicAuth: [] }]);
  assert.ok(doc.paths["/admin"].get.responses["401"]);
  const guard = bearerAuth({ token: "t0ken" });
  const api = defineRoutes({ hello: ["GET", "/hello", Hello] }, { use: [guard] });
  const server = createApp();
  server.mount("/", api);
  const client = createClient({ baseUrl: "http://x", routes: api, fetch: server.fetch });
  const refused = await client.hello();
  assert.equal(refused.ok, false);
  if (!refused.ok) {
    const name: "Unauthorized" | "HttpError" = refused.error.name;
    assert.equal(name, "Unauthorized");
  }
  assert.equal((await client.hello({ headers: { authorization: "Bearer t0ken" } })).ok, true);
});
