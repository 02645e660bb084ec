// portico/session through the public API, as an app uses it: sealed cookies (rotation, tampering,
// truncation, expiry, oversize, a schema that changed), a store (regenerate, destroy, replay), the
// 4 KiB limit as an error, and beside compress, etag, csrf, logger and timeout.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { compress, csrf, etag, logger, memoryStore, timeout } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint } from "../../src/mod.ts";
import { session } from "../../src/session/session.ts";

const SECRET = "a-session-secret-of-at-least-32-characters";
const OLD = "an-older-session-secret-of-32-characters!!";

type Jar = { cookie: string | undefined };
function cookieOf(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((line) => line.startsWith("session="));
  return set?.split(";")[0];
}

function counterApp(options: Parameters<typeof session>[0]) {
  const logged: string[] = [];
  const app = createApp({
    logger: { error: (message, error) => void logged.push(`${message} ${String(error)}`) },
  });
  const sessions = session({
    ...options,
    schema: v.object({ visits: v.number(), user: v.optional(v.string()) }),
  });
  app.use(sessions);
  app.get("/visit", (ctx) => {
    const data = sessions.of(ctx).data;
    data.visits = (data.visits ?? 0) + 1;
    return new Response(String(data.visits));
  });
  app.get("/peek", (ctx) => new Response(JSON.stringify({ ...ctx.session.data, isNew: ctx.session.isNew })));
  app.post("/login", (ctx) => {
    ctx.session.regenerate();
    sessions.of(ctx).data.user = "ada";
    return new Response("in");
  });
  app.post("/logout", (ctx) => {
    ctx.session.destroy();
    return new Response("out");
  });
  app.get("/big", (ctx) => {
    (ctx.session.data as Record<string, unknown>).user = "x".repeat(5000);
    return new Response("never");
  });
  return { app, logged };
}

async function get(
  app: { request(path: string, init?: RequestInit): Promise<Response> },
  path: string,
  jar: Jar,
  method = "GET",
) {
  const res = await app.request(path, { method, headers: jar.cookie ? { cookie: jar.cookie } : {} });
  const set = cookieOf(res);
  if (set !== undefined) jar.cookie = set.endsWith("=") ? undefined : set;
  return res;
}

describe("session(): sealed cookies", () => {
  test("round trip; a visitor who stores nothing gets no cookie; the value is neither readable nor changeable", async () => {
    const { app } = counterApp({ secret: SECRET });
    const jar: Jar = { cookie: undefined };
    const peek = await get(app, "/peek", jar);
    assert.equal(await peek.text(), '{"isNew":true}');
    assert.equal(peek.headers.get("set-cookie"), null);
    assert.equal(await (await get(app, "/visit", jar)).text(), "1");
    assert.equal(await (await get(app, "/visit", jar)).text(), "2");
    assert.match(jar.cookie!, /^session=s1\.[A-Za-z0-9_-]+$/);
    assert.doesNotMatch(
      atob(
        jar
          .cookie!.slice(11)
          .replace(/-/g, "+")
          .replace(/_/g, "/")
          .padEnd(4 * Math.ceil((jar.cookie!.length - 11) / 4), "="),
      ),
      /visits/,
    );
    const res = await app.request("/visit", { headers: { cookie: jar.cookie! } });
    assert.match(
      res.headers.get("set-cookie")!,
      /^session=s1\.[^;]+; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/,
    );
  });

  test("tampered, truncated, foreign, garbage and oversized cookies: an empty session and a normal answer", async () => {
    const { app, logged } = counterApp({ secret: SECRET });
    const jar: Jar = { cookie: undefined };
    await get(app, "/visit", jar);
    const value = jar.cookie!.slice("session=".length);
    const flipped = value.slice(0, 20) + (value[20] === "A" ? "B" : "A") + value.slice(21);
    const foreign = counterApp({ secret: OLD });
    const other: Jar = { cookie: undefined };
    await get(foreign.app, "/visit", other);
    for (const cookie of [
      `session=${flipped}`,
      `session=${value.slice(0, 30)}`,
      `session=${value.slice(0, -1)}`,
      other.cookie!,
      "session=s1.",
      "session=%FF%FE",
      "session=not-a-session",
      `session=s1.${"A".repeat(6000)}`,
    ]) {
      const res = await app.request("/peek", { headers: { cookie } });
      assert.deepEqual([res.status, await res.text()], [200, '{"isNew":true}'], cookie.slice(0, 40));
    }
    assert.deepEqual(logged, []);
  });

  test("expired: past maxAge the session is empty, even though the cookie is sent again", async () => {
    const { app } = counterApp({ secret: SECRET, maxAge: 1 });
    const jar: Jar = { cookie: undefined };
    await get(app, "/visit", jar);
    assert.equal(await (await get(app, "/peek", jar)).text(), '{"visits":1,"isNew":false}');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal(
      await (await app.request("/peek", { headers: { cookie: jar.cookie! } })).text(),
      '{"isNew":true}',
    );
  });

  test("rotation: a session sealed with an old secret opens, and is sealed again with the new one", async () => {
    const before = counterApp({ secret: OLD });
    const jar: Jar = { cookie: undefined };
    await get(before.app, "/visit", jar);
    const after = counterApp({ secret: [SECRET, OLD] });
    assert.equal(await (await get(after.app, "/visit", jar)).text(), "2");
    const newOnly = counterApp({ secret: SECRET });
    assert.equal(await (await get(newOnly.app, "/visit", jar)).text(), "3", "re-sealed with the newest");
  });

  test("data that no longer matches the schema is an empty session, not a 500", async () => {
    const loose = createApp();
    const sessions = session({ secret: SECRET });
    loose.use(sessions).get("/", (ctx) => {
      ctx.session.data.visits = "many";
      return new Response("ok");
    });
    const jar: Jar = { cookie: undefined };
    await get(loose, "/", jar);
    const { app } = counterApp({ secret: SECRET });
    const res = await app.request("/peek", { headers: { cookie: jar.cookie! } });
    assert.deepEqual([res.status, await res.text()], [200, '{"isNew":true}']);
  });

  test("the 4 KiB limit: a clear error when the response is made, never a silently dropped cookie", async () => {
    const { app, logged } = counterApp({ secret: SECRET });
    const res = await app.request("/big");
    assert.equal(res.status, 500);
    assert.equal(res.headers.get("set-cookie"), null);
    assert.equal(logged.length, 1);
    assert.match(
      logged[0]!,
      /SessionTooLarge: session\(\): the sealed session cookie is \d+ bytes, over the 4096 a browser keeps/,
    );
  });

  test("rolling: every answer extends it; destroy() deletes the cookie", async () => {
    const { app } = counterApp({ secret: SECRET, rolling: true, maxAge: 600 });
    const jar: Jar = { cookie: undefined };
    await get(app, "/visit", jar);
    const again = await app.request("/peek", { headers: { cookie: jar.cookie! } });
    assert.match(again.headers.get("set-cookie")!, /Max-Age=600/);
    const out = await get(app, "/logout", jar, "POST");
    assert.match(out.headers.get("set-cookie")!, /^session=; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970/);
  });

  test("options are checked when the middleware is made", () => {
    assert.throws(() => session({}), /give a secret/);
    assert.throws(() => session({ secret: "short" }), /at least 32 characters/);
    assert.throws(() => session({ secret: SECRET, maxAge: 0 }), /maxAge/);
    assert.throws(() => session({ secret: SECRET, cookie: { name: "bad name" } }), /Invalid cookie name/);
  });
});

describe("session(): a store", () => {
  test("an opaque id; regenerate() at login gives a new one and forgets the old; destroy() makes a replay empty", async () => {
    const store = memoryStore();
    const { app } = counterApp({ store });
    const jar: Jar = { cookie: undefined };
    await get(app, "/visit", jar);
    const first = jar.cookie!;
    assert.match(first, /^session=[A-Za-z0-9_-]{43}$/);
    assert.equal(await (await get(app, "/visit", jar)).text(), "2");
    assert.equal(jar.cookie, first, "an unchanged id is not sent again");
    await get(app, "/login", jar, "POST");
    assert.notEqual(jar.cookie, first);
    assert.equal(
      await (await app.request("/peek", { headers: { cookie: first } })).text(),
      '{"isNew":true}',
      "the planted id is gone",
    );
    assert.equal(await (await get(app, "/peek", jar)).text(), '{"visits":2,"user":"ada","isNew":false}');
    const loggedIn = jar.cookie!;
    await get(app, "/logout", jar, "POST");
    const replay = await app.request("/peek", { headers: { cookie: loggedIn } });
    assert.deepEqual([replay.status, await replay.text()], [200, '{"isNew":true}']);
  });
});

describe("session() beside the middleware a real app combines it with", () => {
  test("compress, etag, csrf, logger and timeout around an endpoint reading ep.context.session", async () => {
    const lines: string[] = [];
    const errors: unknown[] = [];
    const app = createApp({ logger: { error: (_message, error) => void errors.push(error) } });
    const sessions = session({ secret: SECRET });
    app
      .use(logger({ sink: (entry) => void lines.push(`${entry.method} ${entry.status}`) }))
      .use(timeout(1000))
      .use(compress({ threshold: 0 }))
      .use(etag())
      .use(csrf())
      .use(sessions);
    const Profile = defineEndpoint({
      call: (ep) => {
        const data = ep.context.session.data as { name?: string };
        data.name ??= "ada";
        ep.context.response.write(JSON.stringify({ name: data.name, padding: "x".repeat(2000) }));
      },
    });
    app.get("/profile", Profile);
    app.post("/profile", (ctx) => {
      ctx.session.data.name = "grace";
      return new Response("saved");
    });
    const first = await app.request("/profile", { headers: { "accept-encoding": "gzip" } });
    assert.deepEqual(errors, []);
    assert.equal(first.headers.get("content-encoding"), "gzip");
    const cookie = cookieOf(first)!;
    assert.ok(cookie, "the session cookie survives compression");
    const tag = first.headers.get("etag")!;
    const cached = await app.request("/profile", {
      headers: { cookie, "if-none-match": tag, "accept-encoding": "gzip" },
    });
    assert.equal(cached.status, 304);
    const forged = await app.request("/profile", {
      method: "POST",
      headers: { cookie, origin: "https://evil.example" },
    });
    assert.equal(forged.status, 403);
    const saved = await app.request("/profile", {
      method: "POST",
      headers: { cookie, origin: "http://localhost" },
    });
    assert.equal(saved.status, 200);
    assert.ok(cookieOf(saved));
    assert.deepEqual(lines, ["GET 200", "GET 304", "POST 403", "POST 200"]);
  });
});
