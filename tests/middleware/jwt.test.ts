// portico/jwt: tokens signed and verified on jose, the jwt() middleware's 401s (missing, expired, not
// yet valid, another audience or issuer, another key, `alg: none`, algorithm confusion, claims that do
// not match the schema), optional tokens, key rotation and key sets, and what the document and the
// typed client make of it.
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { test } from "node:test";
import * as v from "valibot";
import { createClient } from "../../src/client/mod.ts";
import { jwt, signJwt, verifyJwt } from "../../src/middleware/jwt.ts";
import { createApp, defineEndpoint, defineRoutes } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const SECRET = "a-secret-of-at-least-thirty-two-bytes!";
const OTHER = "another-secret-of-thirty-two-bytes!!!";
const b64 = (value: object | string) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

const auth = jwt({
  secret: SECRET,
  algorithms: ["HS256"],
  audience: "conduit",
  issuer: "portico-tests",
  claims: v.object({ sub: v.string(), name: v.string() }),
});
const Me = defineEndpoint({
  call: (ep) => Response.json({ sub: auth.claims(ep.context).sub, name: auth.claims(ep.context).name }),
});
const api = defineRoutes({ me: ["GET", "/me", Me] }, { use: [auth] });

const sign = (claims: Record<string, unknown>, options: Partial<Parameters<typeof signJwt>[1]> = {}) =>
  signJwt(claims, {
    secret: SECRET,
    audience: "conduit",
    issuer: "portico-tests",
    expiresIn: 60,
    ...options,
  });

function build() {
  const app = createApp();
  app.mount("/api", api);
  return app;
}

async function status(app: ReturnType<typeof build>, authorization: string) {
  const response = await app.request("/api/me", { headers: { authorization, accept: "application/json" } });
  const body = (await response.json()) as Json;
  return { status: response.status, body, challenge: response.headers.get("www-authenticate") };
}

test("jwt: a valid token passes and its claims reach the endpoint, typed", async () => {
  const app = build();
  const token = await sign({ sub: "42", name: "Ada" });
  const response = await app.request("/api/me", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { sub: "42", name: "Ada" });
  const claims = await verifyJwt(token, { secret: SECRET, algorithms: ["HS256"] });
  assert.equal(claims.sub, "42");
  assert.equal(typeof claims.iat, "number");
});

test("jwt: missing, malformed, expired, early, foreign, unsigned and confused tokens are each a 401 that says why", async () => {
  const app = build();
  const missing = await status(app, "");
  assert.equal(missing.status, 401);
  assert.equal(missing.challenge, 'Bearer realm="api"');
  assert.equal(missing.body.error.name, "Unauthorized");

  const claims = { sub: "42", name: "Ada" };
  const cases: [string, string, string][] = [
    ["malformed", "Bearer not-a-token", "The token is not valid"],
    ["three parts of nothing", "Bearer a.b.c", "The token is not valid"],
    ["expired", `Bearer ${await sign(claims, { expiresIn: -10 })}`, "The token has expired"],
    ["not yet valid", `Bearer ${await sign(claims, { notBefore: 600 })}`, "The token is not valid yet"],
    [
      "another audience",
      `Bearer ${await sign(claims, { audience: "elsewhere" })}`,
      "The token's aud claim is not accepted",
    ],
    [
      "another issuer",
      `Bearer ${await sign(claims, { issuer: "mallory" })}`,
      "The token's iss claim is not accepted",
    ],
    ["another key", `Bearer ${await sign(claims, { secret: OTHER })}`, "The token is not valid"],
    [
      "claims the schema refuses",
      `Bearer ${await sign({ sub: 42 })}`,
      "The token's claims are not as expected",
    ],
    [
      "alg none",
      `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, aud: "conduit", iss: "portico-tests" })}.`,
      "The token is not valid",
    ],
    [
      "HS512 where only HS256 is allowed",
      `Bearer ${await sign(claims, { algorithm: "HS512" })}`,
      "The token is not valid",
    ],
  ];
  for (const [what, authorization, why] of cases) {
    const refused = await status(app, authorization);
    assert.equal(refused.status, 401, what);
    assert.equal(refused.body.error.message, why, what);
    assert.equal(
      refused.challenge,
      `Bearer realm="api", error="invalid_token", error_description="${why}"`,
      what,
    );
  }
});

test("jwt: a public key never verifies an HMAC token made with it (algorithm confusion), and RS256 works", async () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const rsa = jwt({ publicKey: pem, algorithms: ["RS256"] });
  const app = createApp();
  app.use(rsa).get("/", (ctx) => Response.json(rsa.claims(ctx)));
  const good = await signJwt(
    { sub: "1" },
    {
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      algorithm: "RS256",
      expiresIn: 60,
    },
  );
  assert.equal((await app.request("/", { headers: { authorization: `Bearer ${good}` } })).status, 200);
  // The attacker signs HS256 with the public key's PEM as the HMAC secret.
  const { createHmac } = await import("node:crypto");
  const input = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub: "admin" })}`;
  const forged = `${input}.${createHmac("sha256", pem).update(input).digest("base64url")}`;
  const refused = await app.request("/", { headers: { authorization: `Bearer ${forged}` } });
  assert.equal(refused.status, 401);
  // And the configuration that would allow it does not start.
  assert.throws(
    () => jwt({ publicKey: pem, algorithms: ["RS256", "HS256"] }),
    /HS256 cannot be verified with a public key/,
  );
  assert.throws(
    () => jwt({ secret: SECRET, algorithms: ["RS256"] }),
    /RS256 cannot be verified with an HMAC secret/,
  );
});

test("jwt: the configuration is checked when it is made", async () => {
  assert.throws(() => jwt({ secret: SECRET, algorithms: [] }), /list the accepted algorithms/);
  // @ts-expect-error none is not an algorithm
  assert.throws(() => jwt({ secret: SECRET, algorithms: ["none"] }), /"none" is not an accepted algorithm/);
  assert.throws(() => jwt({ secret: "short", algorithms: ["HS256"] }), /at least 32 bytes/);
  assert.throws(() => jwt({ secret: SECRET, algorithms: ["HS256"], scheme: "To ken" }), /HTTP token/);
  await assert.rejects(signJwt({}, { secret: "short" }), /at least 32 bytes/);
});

test("jwt: optional lets a request without a token through; a bad token is still a 401", async () => {
  const maybe = jwt({ secret: SECRET, algorithms: ["HS256"], optional: true, scheme: "Token" });
  const app = createApp();
  app.use(maybe).get("/", (ctx) => Response.json({ who: maybe.claims(ctx)?.sub ?? null }));
  assert.deepEqual(await (await app.request("/")).json(), { who: null });
  const token = await signJwt({ sub: "7" }, { secret: SECRET, expiresIn: 60 });
  const ok = await app.request("/", { headers: { authorization: `Token ${token}` } });
  assert.deepEqual(await ok.json(), { who: "7" });
  const bad = await app.request("/", { headers: { authorization: `Token ${token}x` } });
  assert.equal(bad.status, 401);
  assert.match(bad.headers.get("www-authenticate")!, /^Token realm="api", error="invalid_token"/);
  // Another scheme than the one asked for is not "no token": it is refused.
  assert.equal((await app.request("/", { headers: { authorization: `Bearer ${token}` } })).status, 401);
});

test("jwt: secrets rotate (the newest signs, all verify); a key set picks the key by kid", async () => {
  const rotated = jwt({ secret: [OTHER, SECRET], algorithms: ["HS256"] });
  const app = createApp();
  app.use(rotated).get("/", (ctx) => Response.json({ sub: rotated.claims(ctx).sub }));
  for (const secret of [SECRET, OTHER]) {
    const token = await signJwt({ sub: "r" }, { secret, expiresIn: 60 });
    assert.equal((await app.request("/", { headers: { authorization: `Bearer ${token}` } })).status, 200);
  }
  const { publicKey, privateKey } = await crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" },
    true,
    ["sign", "verify"],
  );
  const jwk = { ...(await crypto.subtle.exportKey("jwk", publicKey)), kid: "k1", alg: "ES256" };
  const keyed = jwt({ jwks: { keys: [jwk] }, algorithms: ["ES256"] });
  const jwksApp = createApp();
  jwksApp.use(keyed).get("/", (ctx) => Response.json({ sub: keyed.claims(ctx).sub }));
  const signed = await signJwt({ sub: "e" }, { privateKey, algorithm: "ES256", keyId: "k1", expiresIn: 60 });
  assert.equal((await jwksApp.request("/", { headers: { authorization: `Bearer ${signed}` } })).status, 200);
  const unknown = await signJwt({ sub: "e" }, { privateKey, algorithm: "ES256", keyId: "k2", expiresIn: 60 });
  assert.equal((await jwksApp.request("/", { headers: { authorization: `Bearer ${unknown}` } })).status, 401);
});

test("jwt: the document shows the security scheme and the 401; the typed client knows Unauthorized", async () => {
  const app = build();
  const document = openapi(app, { info: { title: "t", version: "1" } }) as Json;
  assert.deepEqual(document.components.securitySchemes.bearerAuth, {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  const operation = document.paths["/api/me"].get;
  assert.deepEqual(operation.security, [{ bearerAuth: [] }]);
  assert.ok(operation.responses["401"]);
  const tokenApp = createApp();
  tokenApp.use(jwt({ secret: SECRET, algorithms: ["HS256"], scheme: "Token", schemeName: "Token" }));
  tokenApp.get("/", () => new Response("ok"));
  const tokenDocument = openapi(tokenApp, { info: { title: "t", version: "1" } }) as Json;
  assert.deepEqual(tokenDocument.components.securitySchemes.Token, {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`Token <JWT>`",
  });
  const client = createClient<typeof api>({ baseUrl: "http://x.test/api", routes: api, fetch: app.fetch });
  const refused = await client.me();
  assert.equal(refused.ok, false);
  if (!refused.ok) {
    assert.equal(refused.status, 401);
    assert.equal(refused.error.name, "Unauthorized");
  }
  const token = await sign({ sub: "1", name: "Bo" });
  const mine = await createClient<typeof api>({
    baseUrl: "http://x.test/api",
    routes: api,
    fetch: app.fetch,
    headers: { authorization: `Bearer ${token}` },
  }).me();
  assert.equal(mine.ok, true);
  if (mine.ok) assert.deepEqual(mine.data, { sub: "1", name: "Bo" });
});

test("jwt: a remote key set (JWKS over HTTP, from a Portico server) verifies tokens by kid", async () => {
  const { serve } = await import("../../src/adapters/node.ts");
  const { publicKey, privateKey } = await crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" },
    true,
    ["sign", "verify"],
  );
  const jwk = {
    ...(await crypto.subtle.exportKey("jwk", publicKey)),
    kid: "remote-1",
    alg: "ES256",
    use: "sig",
  };
  const issuer = createApp();
  let fetched = 0;
  issuer.get("/.well-known/jwks.json", () => {
    fetched++;
    return Response.json({ keys: [jwk] });
  });
  const keys = await serve(issuer, { port: 0 });
  try {
    const remote = jwt({ jwks: new URL("/.well-known/jwks.json", keys.url), algorithms: ["ES256"] });
    const app = createApp();
    app.use(remote).get("/", (ctx) => Response.json({ sub: remote.claims(ctx).sub }));
    const token = await signJwt(
      { sub: "r" },
      { privateKey, algorithm: "ES256", keyId: "remote-1", expiresIn: 60 },
    );
    for (let i = 0; i < 3; i++) {
      const response = await app.request("/", { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual(await response.json(), { sub: "r" });
    }
    assert.equal(fetched, 1, "the key set is fetched once and kept");
    const other = await signJwt(
      { sub: "r" },
      { privateKey, algorithm: "ES256", keyId: "unknown", expiresIn: 60 },
    );
    assert.equal((await app.request("/", { headers: { authorization: `Bearer ${other}` } })).status, 401);
  } finally {
    await keys.close();
  }
});

test("jwt: a token in another header, named in any case, without a scheme", async () => {
  const custom = jwt({ secret: SECRET, algorithms: ["HS256"], header: "X-Auth-Token", scheme: "" });
  const app = createApp();
  app.use(custom).get("/", (ctx) => Response.json({ sub: custom.claims(ctx).sub }));
  const token = await signJwt({ sub: "h" }, { secret: SECRET, expiresIn: 60 });
  assert.deepEqual(await (await app.request("/", { headers: { "x-auth-token": token } })).json(), {
    sub: "h",
  });
  assert.equal((await app.request("/", { headers: { authorization: `Bearer ${token}` } })).status, 401);
  const document = openapi(app, { info: { title: "t", version: "1" } }) as Json;
  assert.deepEqual(document.components.securitySchemes["x-auth-token"], {
    type: "apiKey",
    in: "header",
    name: "X-Auth-Token",
    description: "A JWT",
  });
  assert.throws(() => jwt({ secret: SECRET, algorithms: ["HS256"], header: "bad header" }), /header name/);
});
