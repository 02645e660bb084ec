// portico/jwt and a token's lifetime (RFC 8725 §3.10): `exp` is required unless `requireExpiry: false`,
// `maxTokenAge` bounds the age from `iat`, an `iat` in the future is refused with or without it (within
// `clockTolerance`), and the options are checked when the middleware is made. Tokens with hand-set
// `iat` and `exp` are signed with jose, as another issuer would.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SignJWT } from "jose";
import { JwtInvalid, type JwtOptions, jwt, signJwt, verifyJwt } from "../../src/middleware/jwt.ts";
import { createApp } from "../../src/mod.ts";

const SECRET = "a-secret-of-at-least-thirty-two-bytes!";
const KEY = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);
const HOUR = 3600;
const YEAR = 365 * 86_400;

/** A token with exactly these claims (no `iat` or `exp` unless given). */
const token = (claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(KEY);

function appWith(options: Partial<JwtOptions> = {}) {
  const auth = jwt({ secret: SECRET, algorithms: ["HS256"], ...options } as JwtOptions);
  const app = createApp();
  app.use(auth).get("/", (ctx) => Response.json({ sub: auth.claims(ctx).sub ?? null }));
  return app;
}

async function call(app: ReturnType<typeof appWith>, jwt: string) {
  const response = await app.request("/", {
    headers: { authorization: `Bearer ${jwt}`, accept: "application/json" },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the body is read as untyped JSON here.
  const body = (await response.json()) as any;
  return { status: response.status, body, challenge: response.headers.get("www-authenticate") };
}

function refusedBecause(answer: Awaited<ReturnType<typeof call>>, why: string, what: string) {
  assert.equal(answer.status, 401, what);
  assert.equal(answer.body.error.message, why, what);
  assert.equal(
    answer.challenge,
    `Bearer realm="api", error="invalid_token", error_description="${why}"`,
    what,
  );
}

async function rejectsWith(jwt: string, options: Partial<JwtOptions>, reason: string, message: string) {
  await assert.rejects(
    verifyJwt(jwt, { secret: SECRET, algorithms: ["HS256"], ...options } as JwtOptions),
    (error) => error instanceof JwtInvalid && error.reason === reason && error.message === message,
  );
}

test("jwt: a token without exp is refused by default, and accepted with requireExpiry: false", async () => {
  const forever = await token({ sub: "1", iat: now() });
  refusedBecause(await call(appWith(), forever), "The token has no expiry (exp)", "no exp");
  await rejectsWith(forever, {}, "claim", "The token has no expiry (exp)");
  // Without iat either: the same words.
  refusedBecause(await call(appWith(), await token({ sub: "1" })), "The token has no expiry (exp)", "bare");
  const optOut = appWith({ requireExpiry: false });
  assert.deepEqual(await call(optOut, forever), { status: 200, body: { sub: "1" }, challenge: null });
  assert.equal(
    (await verifyJwt(forever, { secret: SECRET, algorithms: ["HS256"], requireExpiry: false })).sub,
    "1",
  );
  // An exp that is there is still checked.
  const expired = await token({ sub: "1", exp: now() - 10 });
  refusedBecause(await call(optOut, expired), "The token has expired", "expired, opted out");
  // signJwt with expiresIn makes what jwt() accepts by default.
  const signed = await signJwt({ sub: "2" }, { secret: SECRET, expiresIn: 60 });
  assert.equal((await call(appWith(), signed)).status, 200);
});

test("jwt: maxTokenAge refuses a token issued too long ago, whatever its exp; it needs iat", async () => {
  const distant = { sub: "1", exp: 1e20 };
  const old = await token({ ...distant, iat: now() - 2 * HOUR });
  // A far exp with a good signature is accepted when no age is asked for…
  assert.equal((await call(appWith(), old)).status, 200);
  // …and refused as too old with maxTokenAge.
  refusedBecause(await call(appWith({ maxTokenAge: HOUR }), old), "The token is too old", "2 h, max 1 h");
  await rejectsWith(old, { maxTokenAge: HOUR }, "expired", "The token is too old");
  const recent = await token({ ...distant, iat: now() - 10 * 60 });
  assert.equal((await call(appWith({ maxTokenAge: HOUR }), recent)).status, 200);
  // Past the age by less than the tolerance: accepted.
  const edge = await token({ ...distant, iat: now() - HOUR - 30 });
  assert.equal((await call(appWith({ maxTokenAge: HOUR, clockTolerance: 60 }), edge)).status, 200);
  refusedBecause(await call(appWith({ maxTokenAge: HOUR }), edge), "The token is too old", "edge");
  const undated = await token(distant);
  refusedBecause(
    await call(appWith({ maxTokenAge: HOUR }), undated),
    "The token has no issue time (iat)",
    "no iat",
  );
  await rejectsWith(undated, { maxTokenAge: HOUR }, "claim", "The token has no issue time (iat)");
});

test("jwt: a token issued in the future is refused, with or without maxTokenAge, beyond clockTolerance", async () => {
  const future = await token({ sub: "1", iat: now() + 10 * YEAR, exp: now() + 11 * YEAR });
  const why = "The token was issued in the future";
  refusedBecause(await call(appWith(), future), why, "10 years ahead");
  refusedBecause(await call(appWith({ maxTokenAge: HOUR }), future), why, "10 years ahead, maxTokenAge");
  refusedBecause(await call(appWith({ requireExpiry: false }), future), why, "10 years ahead, no exp needed");
  await rejectsWith(future, {}, "not-yet-valid", why);
  await rejectsWith(future, { maxTokenAge: HOUR }, "not-yet-valid", why);
  // A clock 30 s ahead: within a tolerance of 60 s, accepted; with none, refused.
  const skewed = await token({ sub: "1", iat: now() + 30, exp: now() + HOUR });
  assert.equal((await call(appWith({ clockTolerance: 60 }), skewed)).status, 200);
  assert.equal((await call(appWith({ clockTolerance: 60, maxTokenAge: HOUR }), skewed)).status, 200);
  refusedBecause(await call(appWith(), skewed), why, "30 s ahead, no tolerance");
});

test("jwt: lifetime options are checked when the middleware is made", async () => {
  const wrong: [Partial<JwtOptions>, RegExp][] = [
    [{ maxTokenAge: -1 }, /maxTokenAge must be a number of seconds/],
    [{ maxTokenAge: Number.NaN }, /maxTokenAge must be a number of seconds/],
    [{ maxTokenAge: Number.POSITIVE_INFINITY }, /maxTokenAge must be a number of seconds/],
    [{ maxTokenAge: "1h" as never }, /maxTokenAge must be a number of seconds/],
    [{ clockTolerance: -5 }, /clockTolerance must be a number of seconds/],
    [{ requireExpiry: "no" as never }, /requireExpiry must be true or false/],
    [{ jwksTimeoutMs: 0 }, /jwksTimeoutMs must be a whole number of milliseconds/],
    [{ jwksTimeoutMs: 1.5 }, /jwksTimeoutMs must be a whole number of milliseconds/],
  ];
  for (const [options, message] of wrong) {
    assert.throws(
      () => appWith(options),
      (error) => error instanceof TypeError && message.test(error.message),
    );
    await assert.rejects(
      verifyJwt("a.b.c", { secret: SECRET, algorithms: ["HS256"], ...options } as JwtOptions),
      message,
    );
  }
  assert.doesNotThrow(() => appWith({ maxTokenAge: 0, clockTolerance: 0, requireExpiry: true }));
});
