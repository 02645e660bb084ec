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

test("basicAuth: only strict base64 of valid UTF-8 is read; an empty user-id reaches verify; realms are quoted", async () => {
  const seen: [string, string][] = [];
  const app = createApp();
  app.use(
    basicAuth({
      verify: (user, password) => {
        seen.push([user, password]);
        return true;
      },
      realm: 'the "admin" \\ area',
    }),
  );
  app.get("/", Hello);
  const challenge = 'Basic realm="the \\"admin\\" \\\\ area", charset="UTF-8"';
  const bytes = (...b: number[]) => `Basic ${Buffer.from(b).toString("base64")}`;
  // Invalid UTF-8 is refused, never decoded with U+FFFD in its place (bytes "lin:" then 0xFF; 0xC3 alone).
  for (const authorization of [
    bytes(0x6c, 0x69, 0x6e, 0x3a, 0xff),
    bytes(0x6c, 0x69, 0x6e, 0xc3, 0x3a, 0x78),
    // What atob alone would forgive: inner whitespace, and padding after padding.
    "Basic bGlu OngK",
    "Basic bGluOng===",
    "Basic bGluOng=\tx",
  ]) {
    const refused = await app.request("/", { headers: { authorization } });
    assert.equal(refused.status, 401, authorization);
    assert.equal(refused.headers.get("www-authenticate"), challenge);
  }
  assert.deepEqual(seen, []);
  // An empty user-id (RFC 7617 allows one) and an empty password are passed on as they are.
  for (const [text, pair] of [
    [":pw", ["", "pw"]],
    ["lin:", ["lin", ""]],
    ["lin:\u00e9:\u{1f600}", ["lin", "\u00e9:\u{1f600}"]],
  ] as const) {
    seen.length = 0;
    assert.equal((await app.request("/", { headers: { authorization: basic(text) } })).status, 200, text);
    assert.deepEqual(seen, [pair]);
  }
  // Unpadded base64 is read too.
  seen.length = 0;
  assert.equal((await app.request("/", { headers: { authorization: "Basic bGluOng" } })).status, 200);
  assert.deepEqual(seen, [["lin", "x"]]);
});

test("basicAuth with a user: the password U+FFFD is not matched by invalid bytes; both parts must be set", async () => {
  const app = createApp();
  app.use(basicAuth({ username: "admin", password: "\ufffd" }));
  app.get("/", Hello);
  assert.equal((await app.request("/", { headers: { authorization: basic("admin:\ufffd") } })).status, 200);
  const forged = `Basic ${Buffer.concat([Buffer.from("admin:"), Buffer.from([0xff])]).toString("base64")}`;
  assert.equal((await app.request("/", { headers: { authorization: forged } })).status, 401);
  for (const options of [
    { username: "", password: "x" },
    { username: "x", password: "" },
  ])
    assert.throws(() => basicAuth(options), {
      name: "TypeError",
      message: "basicAuth(): the username and the password must not be empty",
    });
});

test("bearerAuth: no empty token; websocketToken takes protocol and query only; a scheme name of one's own", async () => {
  for (const token of ["", ["good-token", ""], []])
    assert.throws(() => bearerAuth({ token }), {
      name: "TypeError",
      message: "bearerAuth(): give at least one token, none empty",
    });
  for (const websocketToken of ["cookie", ["protocol", "header"]])
    assert.throws(
      // biome-ignore lint/suspicious/noExplicitAny: a wrong value, as from untyped configuration.
      () => bearerAuth({ token: "t0ken", websocketToken: websocketToken as any }),
      {
        name: "TypeError",
        message: `bearerAuth(): websocketToken takes "protocol" and "query", got "${typeof websocketToken === "string" ? websocketToken : "header"}"`,
      },
    );
  for (const websocketToken of ["protocol", "query", ["query", "protocol"]] as const)
    assert.doesNotThrow(() => bearerAuth({ token: "t0ken", websocketToken }));
  const app = createApp();
  app.on("/b", (r) => {
    r.use(bearerAuth({ token: "t0ken", schemeName: "apiToken", realm: 'a "quoted" realm' }));
    r.get("/", Hello);
  });
  app.on("/u", (r) => {
    r.use(basicAuth({ username: "u", password: "p", schemeName: "adminLogin" }));
    r.get("/", Hello);
  });
  const doc: Json = openapi(app, { info: { title: "t", version: "1" } });
  assert.deepEqual(doc.components.securitySchemes, {
    apiToken: { type: "http", scheme: "bearer" },
    adminLogin: { type: "http", scheme: "basic" },
  });
  const refused = await app.request("/b", { headers: { authorization: "Bearer other" } });
  assert.equal(
    refused.headers.get("www-authenticate"),
    'Bearer realm="a \\"quoted\\" realm", error="invalid_token"',
  );
  assert.equal((await app.request("/b", { headers: { authorization: "Bearer t0ken" } })).status, 200);
  // A token is compared whole: a prefix, a longer one, another case are refused.
  for (const token of ["t0ke", "t0kenn", "T0KEN"])
    assert.equal(
      (await app.request("/b", { headers: { authorization: `Bearer ${token}` } })).status,
      401,
      token,
    );
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
