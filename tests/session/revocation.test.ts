// portico/session's revocation through the public API: a copied sealed cookie outlives destroy() and
// regenerate() (the limit, asserted); with `revocation`, `sessions.revoke(subject)` ends every copy of the
// subject's cookies (sealed or in a store), `revoke()` then `regenerate()` keeps this device; the store's
// outage fails closed; beside rolling and maxAge, a revocation record that expires revives nothing.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { type KeyValueStore, memoryStore } from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";
import { type SessionOptions, session } from "../../src/session/session.ts";

const SECRET = "a-session-secret-of-at-least-32-characters";
const Data = v.object({ user: v.optional(v.string()), visits: v.optional(v.number()) });

function cookieOf(res: Response): string | undefined {
  return res.headers
    .getSetCookie()
    .find((line) => line.startsWith("session="))
    ?.split(";")[0];
}

function accountApp(options: Omit<SessionOptions<typeof Data>, "schema">) {
  const logged: string[] = [];
  const app = createApp({
    logger: { error: (message, error) => void logged.push(`${message} ${String(error)}`) },
  });
  const sessions = session({ ...options, schema: Data });
  app.use(sessions);
  app.post("/login/:user", (ctx) => {
    ctx.session.regenerate();
    sessions.of(ctx).data.user = ctx.request.pathParams.user!;
    return new Response("in");
  });
  app.get("/me", (ctx) => new Response(sessions.of(ctx).data.user ?? "nobody"));
  app.get("/visit", (ctx) => {
    const data = sessions.of(ctx).data;
    data.visits = (data.visits ?? 0) + 1;
    return new Response(String(data.visits));
  });
  app.post("/logout", (ctx) => {
    ctx.session.destroy();
    return new Response("out");
  });
  app.post("/logout-everywhere", async (ctx) => {
    await sessions.revoke(sessions.of(ctx).data.user ?? "");
    ctx.session.destroy();
    return new Response("out everywhere");
  });
  app.post("/logout-others", async (ctx) => {
    await sessions.revoke(sessions.of(ctx).data.user ?? "");
    ctx.session.regenerate();
    return new Response("others out");
  });
  const login = async (user: string) => cookieOf(await app.request(`/login/${user}`, { method: "POST" }))!;
  const call = async (path: string, cookie: string, method = "GET") => {
    const res = await app.request(path, { method, headers: { cookie } });
    return { status: res.status, text: await res.text(), cookie: cookieOf(res) };
  };
  return { app, sessions, logged, login, call };
}

/** A memory store that can be taken down, and that records the lifetimes it was given. */
function flakyStore() {
  const inner = memoryStore();
  const state = { down: false, ttls: [] as number[] };
  const up = () => {
    if (state.down) throw new Error("ECONNREFUSED 10.0.0.9:6379");
  };
  const store: KeyValueStore = {
    async get(key) {
      up();
      return inner.get(key);
    },
    async set(key, value, ttlMs) {
      up();
      state.ttls.push(ttlMs);
      return inner.set(key, value, ttlMs);
    },
    async delete(key) {
      up();
      return inner.delete(key);
    },
    async increment(key, ttlMs) {
      up();
      return inner.increment(key, ttlMs);
    },
    close: () => inner.close(),
  };
  return { store, state };
}

describe("session(): a sealed cookie and revocation", () => {
  test("without revocation, a copy of a sealed cookie still opens after destroy() and regenerate()", async () => {
    const { login, call, sessions } = accountApp({ secret: SECRET });
    const copied = await login("ada");
    assert.equal(
      (await call("/logout", copied, "POST")).cookie,
      "session=",
      "the browser's cookie is deleted",
    );
    assert.equal((await call("/me", copied)).text, "ada", "the copy is still a signed-in session");
    const relogged = await call("/login/ada", copied, "POST");
    assert.notEqual(relogged.cookie, copied);
    assert.equal((await call("/me", copied)).text, "ada", "regenerate() does not end it either");
    await assert.rejects(sessions.revoke("ada"), /revoke\(\) needs the revocation option/);
  });

  test("revoke(subject) ends every copy of that subject's cookies, and no one else's; a new login works", async () => {
    const store = memoryStore();
    const { login, call } = accountApp({
      secret: SECRET,
      revocation: { store, subject: (data) => data.user },
    });
    const laptop = await login("ada");
    const phone = await login("ada");
    const bob = await login("bob");
    const anonymous = (await call("/visit", "session=none")).cookie!;
    assert.equal((await call("/me", phone)).text, "ada");
    assert.equal((await call("/logout-everywhere", laptop, "POST")).cookie, "session=");
    for (const copy of [laptop, phone]) assert.equal((await call("/me", copy)).text, "nobody");
    assert.equal((await call("/me", bob)).text, "bob");
    assert.equal((await call("/visit", anonymous)).text, "2", "a session without a subject is never revoked");
    const again = await login("ada");
    assert.equal((await call("/me", again)).text, "ada", "sealed with the new generation");
    assert.equal((await call("/me", phone)).text, "nobody");
  });

  test("revoke() then regenerate() keeps this device and ends the others", async () => {
    const { login, call } = accountApp({
      secret: SECRET,
      revocation: { store: memoryStore(), subject: (data) => data.user },
    });
    const laptop = await login("ada");
    const phone = await login("ada");
    const kept = (await call("/logout-others", laptop, "POST")).cookie!;
    assert.deepEqual(
      [(await call("/me", kept)).text, (await call("/me", laptop)).text, (await call("/me", phone)).text],
      ["ada", "nobody", "nobody"],
    );
  });

  test("revoke() without regenerate() ends this device too, even when the session changes after it", async () => {
    const { app, sessions, login, call } = accountApp({
      secret: SECRET,
      revocation: { store: memoryStore(), subject: (data) => data.user },
    });
    app.post("/revoke-then-visit", async (ctx) => {
      const data = sessions.of(ctx).data;
      await sessions.revoke(data.user ?? "");
      data.visits = (data.visits ?? 0) + 1; // sealed again, with the generation it was read with
      return new Response("revoked");
    });
    const laptop = await login("ada");
    const resealed = (await call("/revoke-then-visit", laptop, "POST")).cookie!;
    assert.notEqual(resealed, laptop);
    assert.equal((await call("/me", resealed)).text, "nobody");
  });

  test("with a store too: revoke() ends the subject's sessions whose ids are still there", async () => {
    const { login, call } = accountApp({
      store: memoryStore(),
      revocation: { store: memoryStore(), subject: (data) => data.user },
    });
    const laptop = await login("ada");
    const phone = await login("ada");
    assert.match(laptop, /^session=[A-Za-z0-9_-]{43}$/);
    await call("/logout-everywhere", laptop, "POST");
    assert.equal((await call("/me", phone)).text, "nobody");
  });

  test("the store's outage fails closed: a subject's session reads as empty, a login is a 500; it comes back after", async () => {
    const { store, state } = flakyStore();
    const errors: unknown[] = [];
    const { login, call, logged } = accountApp({
      secret: SECRET,
      revocation: { store, subject: (data) => data.user, onStoreError: (error) => void errors.push(error) },
    });
    const ada = await login("ada");
    const anonymous = (await call("/visit", "session=none")).cookie!;
    state.down = true;
    const down = await call("/me", ada);
    assert.deepEqual([down.status, down.text, down.cookie], [200, "nobody", undefined]);
    assert.match(String(errors[0]), /ECONNREFUSED/);
    assert.equal((await call("/visit", anonymous)).text, "2", "no subject, no store asked");
    const failedLogin = await call("/login/bob", anonymous, "POST");
    assert.deepEqual([failedLogin.status, failedLogin.cookie], [500, undefined]);
    assert.match(logged[0]!, /ECONNREFUSED/);
    state.down = false;
    assert.equal((await call("/me", ada)).text, "ada", "not revoked: valid again once the store answers");
  });

  test("beside rolling and maxAge: records last maxAge, and one that expired revives nothing", async (t) => {
    let now = Date.now();
    t.mock.method(Date, "now", () => now);
    const { store, state } = flakyStore();
    const { login, call } = accountApp({
      secret: SECRET,
      maxAge: 10,
      rolling: true,
      revocation: { store, subject: (data) => data.user },
    });
    const stolen = await login("ada");
    const mine = await login("ada");
    assert.ok((await call("/logout-others", mine, "POST")).cookie);
    assert.deepEqual(state.ttls, [10_000], "kept maxAge: longer than any cookie sealed before it lives");
    let current = await login("ada");
    now += 6_000;
    const rolled = await call("/me", current);
    assert.deepEqual([rolled.text, rolled.cookie !== undefined], ["ada", true], "rolling re-seals it");
    current = rolled.cookie!;
    assert.equal((await call("/me", stolen)).text, "nobody", "revoked, and rolling does not revive it");
    now += 6_000; // the record has expired, and every cookie sealed before it
    assert.equal(await store.get("session-generation:ada"), undefined);
    assert.equal((await call("/me", stolen)).text, "nobody", "expired by its own maxAge");
    assert.equal((await call("/me", current)).text, "ada", "a cookie sealed after the revocation lives on");
  });
});
