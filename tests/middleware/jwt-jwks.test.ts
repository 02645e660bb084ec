// portico/jwt with a remote key set (a JWKS URL) when its server misbehaves: one that never answers
// (`jwksTimeoutMs`), fails, or answers garbage is the declared 503 `KeysUnavailable` with `Retry-After`
// and nothing of the key server's answer; one fetch in flight serves every request waiting on it; when
// the key server recovers, tokens pass again. The key server is a real Portico server on 127.0.0.1.
import assert from "node:assert/strict";
import { test } from "node:test";
import { serve } from "../../src/adapters/node.ts";
import {
  JwtInvalid,
  type JwtOptions,
  jwt,
  KeysUnavailable,
  signJwt,
  verifyJwt,
} from "../../src/middleware/jwt.ts";
import { createApp } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;
type Mode = "ok" | "hang" | "slow" | "not-json" | "500" | "keys-not-a-list";

const { publicKey, privateKey } = await crypto.subtle.generateKey(
  { name: "ECDSA", namedCurve: "P-256" },
  true,
  ["sign", "verify"],
);
const jwk = { ...(await crypto.subtle.exportKey("jwk", publicKey)), kid: "k1", alg: "ES256", use: "sig" };
const token = await signJwt({ sub: "r" }, { privateKey, algorithm: "ES256", keyId: "k1", expiresIn: 600 });

/** A key server whose answer is `mode`; it counts the requests it was sent. */
async function keyServer() {
  const state = { mode: "ok" as Mode, fetched: 0 };
  const hanging: (() => void)[] = [];
  const issuer = createApp();
  issuer.get("/jwks.json", async () => {
    state.fetched++;
    switch (state.mode) {
      case "hang":
        await new Promise<void>((resolve) => hanging.push(resolve));
        return new Response("too late", { status: 504 });
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, 200));
        return Response.json({ keys: [jwk] });
      case "not-json":
        return new Response("not json", { headers: { "content-type": "text/plain" } });
      case "500":
        return new Response("secret stack trace of the key server", { status: 500 });
      case "keys-not-a-list":
        return Response.json({ keys: "x" });
      default:
        return Response.json({ keys: [jwk] });
    }
  });
  const server = await serve(issuer, { port: 0, gracePeriod: 500 });
  const url = new URL("/jwks.json", server.url);
  const close = async () => {
    for (const release of hanging) release();
    await server.close();
  };
  return { state, url, close };
}

/** An app behind jwt() on that key set; the failures it reports are kept. */
function appFor(url: URL, options: Partial<JwtOptions> = {}) {
  const reported: unknown[] = [];
  const auth = jwt({
    jwks: url,
    algorithms: ["ES256"],
    onKeysError: (error) => reported.push(error),
    ...options,
  } as JwtOptions);
  const app = createApp();
  app.use(auth).get("/", (ctx) => Response.json({ sub: auth.claims(ctx).sub }));
  const call = () =>
    app.request("/", { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  return { app, call, reported };
}

async function unavailable(response: Response, url: URL, what: string) {
  const text = await response.text();
  assert.equal(response.status, 503, what);
  assert.equal(response.headers.get("retry-after"), "5", what);
  assert.equal(response.headers.get("www-authenticate"), null, what);
  const body = JSON.parse(text);
  assert.equal(body.error.name, "Keys Unavailable", what);
  assert.equal(body.error.message, "The keys to verify the token could not be fetched", what);
  for (const leak of [
    url.host,
    String(url.port),
    "jwks",
    "jose",
    "JSON Web Key",
    "timeout",
    "fetch failed",
    "stack",
  ])
    assert.ok(!text.includes(leak), `${what}: the body says nothing of the key server (${leak}): ${text}`);
}

test("jwt: a key server that never answers is a 503 with Retry-After after jwksTimeoutMs", async () => {
  const keys = await keyServer();
  try {
    keys.state.mode = "hang";
    const { call, reported } = appFor(keys.url, { jwksTimeoutMs: 300 });
    const started = performance.now();
    const response = await call();
    const elapsed = performance.now() - started;
    await unavailable(response, keys.url, "hang");
    assert.ok(elapsed >= 250 && elapsed < 1000, `answered after ${Math.round(elapsed)} ms`);
    assert.equal(reported.length, 1);
    assert.equal((reported[0] as { code?: string }).code, "ERR_JWKS_TIMEOUT");
  } finally {
    await keys.close();
  }
});

test("jwt: a key server that answers garbage or fails is a 503; when it recovers, tokens pass", async () => {
  const keys = await keyServer();
  try {
    const { call, reported } = appFor(keys.url);
    const modes: Mode[] = ["not-json", "500", "keys-not-a-list"];
    for (const mode of modes) {
      keys.state.mode = mode;
      await unavailable(await call(), keys.url, mode);
    }
    assert.equal(reported.length, modes.length, "each failed fetch is reported once");
    // A failed fetch is not kept: the next request asks again.
    keys.state.mode = "ok";
    const response = await call();
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { sub: "r" });
    assert.equal(keys.state.fetched, modes.length + 1);
  } finally {
    await keys.close();
  }
});

test("jwt: a key server that cannot be reached is a 503", async () => {
  const keys = await keyServer();
  await keys.close();
  const { call, reported } = appFor(keys.url);
  await unavailable(await call(), keys.url, "connection refused");
  assert.equal(reported.length, 1);
});

test("jwt: 20 requests waiting on a slow key server share one fetch", async () => {
  const keys = await keyServer();
  try {
    keys.state.mode = "slow";
    const { call } = appFor(keys.url);
    const responses = await Promise.all(Array.from({ length: 20 }, call));
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(20).fill(200),
    );
    assert.equal(keys.state.fetched, 1, "one fetch for all of them");
    // 20 requests waiting on one hanging fetch: one failure, reported once, 20 answers of 503.
    const hung = await keyServer();
    try {
      hung.state.mode = "hang";
      const waiting = appFor(hung.url, { jwksTimeoutMs: 300 });
      const failed = await Promise.all(Array.from({ length: 20 }, waiting.call));
      for (const response of failed) await unavailable(response, hung.url, "hang, concurrent");
      assert.equal(hung.state.fetched, 1);
      assert.equal(waiting.reported.length, 1);
    } finally {
      await hung.close();
    }
  } finally {
    await keys.close();
  }
});

test("jwt: verifyJwt throws KeysUnavailable (not JwtInvalid) when the key set cannot be read", async () => {
  const keys = await keyServer();
  try {
    keys.state.mode = "500";
    const options = { jwks: keys.url, algorithms: ["ES256"] } as const;
    await assert.rejects(verifyJwt(token, options), (error) => {
      assert.ok(error instanceof KeysUnavailable);
      assert.ok(!(error instanceof JwtInvalid));
      assert.equal(error.code, 503);
      assert.deepEqual(error.headers, { "retry-after": "5" });
      return true;
    });
    keys.state.mode = "ok";
    assert.equal((await verifyJwt(token, options)).sub, "r");
    // A token the key set does not know is still the token's fault.
    const unknown = await signJwt(
      { sub: "r" },
      { privateKey, algorithm: "ES256", keyId: "k9", expiresIn: 60 },
    );
    await assert.rejects(verifyJwt(unknown, options), JwtInvalid);
  } finally {
    await keys.close();
  }
});

test("jwt: the document shows the 503 where the keys are fetched, and only there", () => {
  const responses = (app: ReturnType<typeof createApp>): Json =>
    (openapi(app, { info: { title: "t", version: "1" } }) as Json).paths["/"].get.responses;
  const remote = appFor(new URL("http://127.0.0.1:9/jwks.json")).app;
  assert.ok(responses(remote)["401"]);
  assert.ok(responses(remote)["503"]);
  const local = createApp();
  local.use(jwt({ jwks: { keys: [jwk] }, algorithms: ["ES256"] })).get("/", () => new Response("ok"));
  assert.ok(responses(local)["401"]);
  assert.equal(responses(local)["503"], undefined);
});
