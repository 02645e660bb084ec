// portico/jwt: tokens signed and verified on jose, the jwt() middleware's 401s (missing, expired, not
// yet valid, another audience or issuer, another key, `alg: none`, algorithm confusion, claims that do
// not match the schema), optional tokens, key rotation and key sets, and what the document and the
// typed client make of it.
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { test } from "node:test";
import * as v from "valibot";
import { createClient } from "../../src/client/mod.ts";
import { type JwtAlgorithm, jwt, signJwt, verifyJwt } from "../../src/middleware/jwt.ts";
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

test("jwt: every accepted algorithm signs and verifies with a key of its family, and with no other", async () => {
  const pems = (kind: "rsa" | "ec" | "ed25519", namedCurve?: string) => {
    const pair =
      kind === "rsa"
        ? generateKeyPairSync("rsa", { modulusLength: 2048 })
        : kind === "ec"
          ? generateKeyPairSync("ec", { namedCurve: namedCurve! })
          : generateKeyPairSync("ed25519");
    return {
      privateKey: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      publicKey: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
    };
  };
  const rsa = pems("rsa");
  const ed = pems("ed25519");
  const families: [JwtAlgorithm[], { privateKey: string; publicKey: string } | undefined][] = [
    [["HS256", "HS384", "HS512"], undefined],
    [["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"], rsa],
    [["ES256"], pems("ec", "P-256")],
    [["ES384"], pems("ec", "P-384")],
    [["ES512"], pems("ec", "P-521")],
    [["EdDSA", "Ed25519"], ed],
  ];
  for (const [algorithms, pair] of families)
    for (const algorithm of algorithms) {
      const token = await signJwt(
        { sub: algorithm },
        pair === undefined
          ? { secret: SECRET, algorithm, expiresIn: 60 }
          : { privateKey: pair.privateKey, algorithm, expiresIn: 60 },
      );
      assert.deepEqual(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()), {
        alg: algorithm,
        typ: "JWT",
      });
      const keys = pair === undefined ? { secret: SECRET } : { publicKey: pair.publicKey };
      // The middleware with this one algorithm, and with every one of the family (the key imported for the
      // algorithm the token names).
      for (const allowed of [[algorithm], algorithms]) {
        const app = createApp();
        const guard = jwt({ ...keys, algorithms: allowed });
        app.use(guard).get("/", (ctx) => ctx.response.write(guard.claims(ctx).sub ?? ""));
        const res = await app.request("/", { headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.status, 200, `${algorithm} with ${allowed.join(",")}`);
        assert.equal(await res.text(), algorithm);
      }
      // Not accepted when its algorithm is not listed, even with the right key.
      const others = algorithms.filter((a) => a !== algorithm);
      if (others.length > 0)
        await assert.rejects(verifyJwt(token, { ...keys, algorithms: others } as never), {
          name: "JwtInvalid",
        });
    }
  // A public key of another family than the (allowed) algorithm a token names: refused with a 401, not a 500.
  const mixed = createApp();
  const guard = jwt({ publicKey: rsa.publicKey, algorithms: ["RS256", "EdDSA"] });
  mixed.use(guard).get("/", (ctx) => ctx.response.write("in"));
  const edToken = await signJwt(
    { sub: "x" },
    { privateKey: ed.privateKey, algorithm: "EdDSA", expiresIn: 60 },
  );
  const refused = await mixed.request("/", {
    headers: { authorization: `Bearer ${edToken}`, accept: "application/json" },
  });
  assert.equal(refused.status, 401);
  assert.equal(
    refused.headers.get("www-authenticate"),
    'Bearer realm="api", error="invalid_token", error_description="The token is not valid"',
  );
});

test("jwt: keys are checked against the algorithms when configured and when signing", async () => {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const privatePem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const configErrors: [() => unknown, string][] = [
    [
      () => jwt({ secret: SECRET, publicKey: pem, algorithms: ["HS256"] } as never),
      "portico/jwt: give exactly one of secret, publicKey or jwks",
    ],
    [
      () => jwt({ algorithms: ["HS256"] } as never),
      "portico/jwt: give exactly one of secret, publicKey or jwks",
    ],
    [
      () => jwt({ publicKey: pem, algorithms: ["ES256", "HS256", "HS512"] }),
      "portico/jwt: HS256, HS512 cannot be verified with a public key",
    ],
    [
      () => jwt({ secret: SECRET, algorithms: ["HS384", "ES256", "EdDSA"] }),
      "portico/jwt: ES256, EdDSA cannot be verified with an HMAC secret",
    ],
    [
      () => jwt({ secret: [SECRET, "x".repeat(31)], algorithms: ["HS256"] }),
      "portico/jwt: an HMAC secret must be at least 32 bytes (256 bits)",
    ],
    [
      () => jwt({ secret: [], algorithms: ["HS256"] }),
      "portico/jwt: an HMAC secret must be at least 32 bytes (256 bits)",
    ],
    [
      () => jwt({ secret: SECRET, algorithms: ["HS257" as never] }),
      'portico/jwt: "HS257" is not an accepted algorithm',
    ],
    [
      () => jwt({ secret: SECRET, algorithms: "HS256" as never }),
      'portico/jwt: list the accepted algorithms, as algorithms: ["HS256"]',
    ],
  ];
  for (const [make, message] of configErrors) assert.throws(make, { name: "TypeError", message });
  // Exactly 32 bytes is enough; a key given as undefined is not given.
  const exact = "k".repeat(32);
  const token = await signJwt({ sub: "32" }, { secret: exact, expiresIn: 60 });
  assert.equal(
    (await verifyJwt(token, { secret: exact, publicKey: undefined, algorithms: ["HS256"] } as never)).sub,
    "32",
  );
  const signErrors: [Parameters<typeof signJwt>[1], string][] = [
    [{ secret: SECRET, algorithm: "ES256" }, "signJwt(): ES256 does not sign with an HMAC secret"],
    [
      { privateKey: privatePem, algorithm: "HS256" },
      "signJwt(): HS256 signs with a secret, not a private key",
    ],
    [
      { secret: SECRET, privateKey: privatePem, algorithm: "HS256" },
      "signJwt(): give either a secret or a private key",
    ],
    [{ algorithm: "HS256" }, "signJwt(): give either a secret or a private key"],
    [{ secret: "x".repeat(31) }, "signJwt(): an HMAC secret must be at least 32 bytes (256 bits)"],
    [{ secret: SECRET, algorithm: "none" as never }, 'signJwt(): "none" is not an accepted algorithm'],
    [
      { privateKey: { kty: "oct", k: Buffer.from(SECRET).toString("base64url") }, algorithm: "ES256" },
      "portico/jwt: that JWK is a secret, not a key pair's key",
    ],
  ];
  for (const [options, message] of signErrors)
    await assert.rejects(signJwt({}, options), { name: "TypeError", message });
  // A private key as a JWK and as a CryptoKey; the public key as a JWK and as a CryptoKey.
  const jwkPrivate = privateKey.export({ format: "jwk" });
  const jwkPublic = publicKey.export({ format: "jwk" });
  const cryptoPublic = await crypto.subtle.importKey(
    "jwk",
    jwkPublic,
    { name: "ECDSA", namedCurve: "P-256" },
    true,
    ["verify"],
  );
  const cryptoPrivate = await crypto.subtle.importKey(
    "jwk",
    jwkPrivate,
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  for (const signWith of [jwkPrivate, cryptoPrivate, privatePem]) {
    const signed = await signJwt({ sub: "es" }, { privateKey: signWith, algorithm: "ES256", expiresIn: 60 });
    for (const verifyWith of [jwkPublic, cryptoPublic, pem])
      assert.equal((await verifyJwt(signed, { publicKey: verifyWith, algorithms: ["ES256"] })).sub, "es");
  }
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

test("jwt: the challenge, the scheme's name and description in the document, claims(ctx) asked too early", async () => {
  const app = createApp();
  const guards = {
    "/plain": jwt({ secret: SECRET, algorithms: ["HS256"], header: "X-Auth-Token", scheme: "" }),
    "/named": jwt({ secret: SECRET, algorithms: ["HS256"], schemeName: "userJwt" }),
    "/token": jwt({ secret: SECRET, algorithms: ["HS256"], scheme: "Token" }),
    "/lower": jwt({ secret: SECRET, algorithms: ["HS256"], header: "authorization", scheme: "JWT" }),
    "/other": jwt({ secret: SECRET, algorithms: ["HS256"], header: "X-Api-Jwt" }),
  };
  for (const [path, guard] of Object.entries(guards))
    app.on(path, (r) => {
      r.use(guard);
      r.get("/", (ctx) => ctx.response.write("in"));
    });
  const unchecked = guards["/named"];
  const optional = jwt({ secret: SECRET, algorithms: ["HS256"], optional: true });
  app.get("/early", (ctx) => {
    try {
      unchecked.claims(ctx);
    } catch (error) {
      ctx.response.write(`${String(error)} | ${String(optional.claims(ctx))}`);
    }
  });
  // Without a scheme of its own the challenge still names Bearer.
  const missing = await app.request("/plain");
  assert.equal(missing.status, 401);
  assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="api"');
  assert.equal((await app.request("/token")).headers.get("www-authenticate"), 'Token realm="api"');
  const document = openapi(app, { info: { title: "t", version: "1" } }) as Json;
  assert.deepEqual(document.components.securitySchemes, {
    "x-auth-token": { type: "apiKey", in: "header", name: "X-Auth-Token", description: "A JWT" },
    userJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    Token: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <JWT>`" },
    JWT: { type: "apiKey", in: "header", name: "Authorization", description: "`JWT <JWT>`" },
    Bearer: { type: "apiKey", in: "header", name: "X-Api-Jwt", description: "`Bearer <JWT>`" },
  });
  assert.equal(
    await (await app.request("/early")).text(),
    "TypeError: jwt(): claims(ctx) was asked on a request this middleware did not check | undefined",
  );
  assert.throws(
    // biome-ignore lint/suspicious/noExplicitAny: a wrong value, as from untyped configuration.
    () => jwt({ secret: SECRET, algorithms: ["HS256"], websocketToken: "cookie" as any }),
    { name: "TypeError", message: 'jwt(): websocketToken takes "protocol" and "query", got "cookie"' },
  );
});

test("jwt: a key set URL given as a string is fetched; one that cannot be reached is the 503", async () => {
  const errors: unknown[] = [];
  const remote = jwt({
    jwks: "http://127.0.0.1:9/.well-known/jwks.json",
    algorithms: ["ES256"],
    jwksTimeoutMs: 2000,
    onKeysError: (error) => errors.push(error),
  });
  const app = createApp();
  app.use(remote).get("/", (ctx) => ctx.response.write("in"));
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const token = await signJwt(
    { sub: "s" },
    {
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      algorithm: "ES256",
      expiresIn: 60,
    },
  );
  const res = await app.request("/", {
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
  });
  assert.equal(res.status, 503);
  assert.ok(res.headers.has("retry-after"));
  assert.equal(errors.length, 1);
});
