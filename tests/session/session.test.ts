// portico/session through the public API, as an app uses it: sealed cookies (rotation, tampering,
// truncation, expiry, oversize, a schema that changed), a store (regenerate, destroy, replay), the
// 4 KiB limit as an error, and beside compress, etag, csrf, logger and timeout.
import assert from "node:assert/strict";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import * as v from "valibot";
import {
  compress,
  csrf,
  etag,
  type KeyValueStore,
  logger,
  memoryStore,
  timeout,
} from "../../src/middleware/mod.ts";
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

// The key of a secret, derived here with node:crypto (HKDF-SHA256, empty salt, info "portico/session v1",
// 32 bytes), independently of src/session/seal.ts; the cookie's name is the additional data.
const keyOf = (secret: string) =>
  Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "portico/session v1", 32));
function unseal(
  cookie: string,
  secret = SECRET,
  name = "session",
): { d: Record<string, unknown>; e: number } {
  const value = cookie.slice(cookie.indexOf("=") + 1);
  assert.ok(value.startsWith("s1."), value);
  const bytes = Buffer.from(value.slice(3), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(name));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
  return JSON.parse(plain.toString("utf8"));
}
function sealHere(payload: string, secret = SECRET, name = "session"): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  cipher.setAAD(Buffer.from(name));
  const sealed = Buffer.concat([cipher.update(payload, "utf8"), cipher.final()]);
  return `s1.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url")}`;
}

describe("session(): the sealed format, checked against node:crypto", () => {
  test("HKDF-SHA256 known answer: RFC 5869 test case 3 (empty salt and info) through node:crypto", () => {
    // The reference this file's keyOf() relies on, checked against the RFC's published OKM.
    const okm = hkdfSync("sha256", Buffer.alloc(22, 0x0b), Buffer.alloc(0), Buffer.alloc(0), 42);
    assert.equal(
      Buffer.from(okm).toString("hex"),
      "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
    );
  });

  test("a cookie is AES-256-GCM under HKDF-SHA256(secret, no salt, 'portico/session v1'), the name as data", async () => {
    const { app } = counterApp({ secret: SECRET, maxAge: 600 });
    const jar: Jar = { cookie: undefined };
    const before = Date.now();
    await get(app, "/visit", jar);
    const opened = unseal(jar.cookie!);
    assert.deepEqual(opened.d, { visits: 1 });
    assert.ok(opened.e >= before + 600_000 && opened.e <= Date.now() + 600_000, String(opened.e));
    // One sealed here opens there; under another name, another secret or with a bad tag it does not.
    const mine = sealHere(`{"d":{"visits":41,"user":"lin"},"e":${Date.now() + 60_000}}`);
    const res = await app.request("/visit", { headers: { cookie: `session=${mine}` } });
    assert.equal(await res.text(), "42");
    assert.deepEqual(unseal(cookieOf(res)!).d, { visits: 42, user: "lin" });
    for (const cookie of [
      sealHere(`{"d":{"visits":41},"e":${Date.now() + 60_000}}`, SECRET, "other"),
      sealHere(`{"d":{"visits":41},"e":${Date.now() + 60_000}}`, OLD),
      sealHere(`{"d":{"visits":41},"e":${Date.now() - 1}}`),
      `${mine.slice(0, -2)}${mine.endsWith("AA") ? "BA" : "AA"}`,
      mine.replace("s1.", "s2."),
    ]) {
      const refused = await app.request("/peek", { headers: { cookie: `session=${cookie}` } });
      assert.equal(await refused.text(), '{"isNew":true}', cookie);
    }
    // A cookie of another name seals with its name, and every secret of a rotation opens its own.
    const named = createApp();
    const sessions = session({ secret: [SECRET, OLD], cookie: { name: "sid" } });
    named.use(sessions).get("/", (ctx) => {
      const data = sessions.of(ctx).data as { n?: number };
      data.n = (data.n ?? 0) + 1;
      return new Response(String(data.n));
    });
    const first = await named.request("/");
    const sid = first.headers.getSetCookie()[0]!.split(";")[0]!;
    assert.deepEqual(unseal(sid, SECRET, "sid").d, { n: 1 });
    const old = sealHere(`{"d":{"n":6},"e":${Date.now() + 60_000}}`, OLD, "sid");
    assert.equal(await (await named.request("/", { headers: { cookie: `sid=${old}` } })).text(), "7");
  });

  test("rolling: off, the end stays where it was and an unchanged session sends nothing; on, each answer moves it", async () => {
    for (const rolling of [false, true]) {
      const { app } = counterApp({ secret: SECRET, maxAge: 600, rolling });
      const jar: Jar = { cookie: undefined };
      await get(app, "/visit", jar);
      const { e } = unseal(jar.cookie!);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const peek = await app.request("/peek", { headers: { cookie: jar.cookie! } });
      const visit = await app.request("/visit", { headers: { cookie: jar.cookie! } });
      if (!rolling) {
        assert.equal(peek.headers.get("set-cookie"), null);
        assert.equal(unseal(cookieOf(visit)!).e, e, "the end does not move");
        assert.match(visit.headers.get("set-cookie")!, /; Max-Age=(600|599);/);
      } else {
        assert.ok(unseal(cookieOf(peek)!).e >= e + 20, "an unchanged session moves too");
        assert.deepEqual(unseal(cookieOf(peek)!).d, { visits: 1 });
        assert.ok(unseal(cookieOf(visit)!).e >= e + 20);
        assert.match(visit.headers.get("set-cookie")!, /; Max-Age=600;/);
      }
    }
    // A session that ends while its request runs is still written with Max-Age=1, not 0 (a deletion).
    {
      const late = createApp();
      const sessions = session({ secret: SECRET });
      late.use(sessions).get("/", async (ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 80));
        sessions.of(ctx).data.n = 2;
        return new Response("late");
      });
      const ending = sealHere(`{"d":{"n":1},"e":${Date.now() + 30}}`);
      const res = await late.request("/", { headers: { cookie: `session=${ending}` } });
      assert.equal(await res.text(), "late");
      assert.match(res.headers.get("set-cookie")!, /; Max-Age=1;/);
    }
    // Data that is not a record is an empty session (no schema here to refuse it).
    {
      const loose = createApp();
      loose.use(session({ secret: SECRET })).get("/", (ctx) => Response.json(ctx.session.data));
      for (const d of ["[1,2]", '"ab"', "null", "3"]) {
        const cookie = `session=${sealHere(`{"d":${d},"e":${Date.now() + 60_000}}`)}`;
        assert.deepEqual(await (await loose.request("/", { headers: { cookie } })).json(), {}, d);
      }
      const good = `session=${sealHere(`{"d":{"a":1},"e":${Date.now() + 60_000}}`)}`;
      assert.deepEqual(await (await loose.request("/", { headers: { cookie: good } })).json(), { a: 1 });
    }
    // Near its end a non-rolling session is sent with the seconds it has left, never 0 (at least 1).
    const { app } = counterApp({ secret: SECRET, maxAge: 600 });
    const soon = sealHere(`{"d":{"visits":1},"e":${Date.now() + 1500}}`);
    const res = await app.request("/visit", { headers: { cookie: `session=${soon}` } });
    assert.equal(await res.text(), "2");
    assert.match(res.headers.get("set-cookie")!, /; Max-Age=(1|2);/);
  });
});

describe("session(): its options' limits", () => {
  test("a secret of exactly 32 characters seals; 31, none, or not a string is refused with its message", async () => {
    const exact = "s".repeat(32);
    const { app } = counterApp({ secret: exact });
    const res = await app.request("/visit");
    assert.deepEqual(unseal(cookieOf(res)!, exact).d, { visits: 1 });
    for (const [secret, message] of [
      ["s".repeat(31), "session(): a secret must be a string of at least 32 characters"],
      [[exact, "s".repeat(31)], "session(): a secret must be a string of at least 32 characters"],
      [[exact, 42], "session(): a secret must be a string of at least 32 characters"],
      [[], "session(): give a secret (the cookie is sealed with it), or a store"],
    ] as const)
      assert.throws(() => session({ secret: secret as never }), { name: "TypeError", message }, message);
    for (const maxAge of [0, -1, 1.5, Number.NaN])
      assert.throws(() => session({ secret: exact, maxAge }), {
        name: "TypeError",
        message: "session(): maxAge must be a positive whole number of seconds",
      });
  });
});

describe("session(): a store's keys and rolling", () => {
  function recording() {
    const store = memoryStore();
    const calls: string[] = [];
    const recorded: KeyValueStore = {
      ...store,
      get(key) {
        calls.push(`get ${key}`);
        return store.get(key);
      },
      set(key, value, ttl) {
        calls.push(`set ${key} ${ttl}`);
        return store.set(key, value, ttl);
      },
      delete(key) {
        calls.push(`delete ${key}`);
        return store.delete(key);
      },
    };
    return { store: recorded, calls };
  }

  test("prefix: every key is the prefix and the id (default session:); a malformed id is never looked up", async () => {
    for (const [prefix, expected] of [
      [undefined, "session:"],
      ["tenant-1/", "tenant-1/"],
    ] as const) {
      const { store, calls } = recording();
      const { app } = counterApp(
        prefix === undefined ? { store, maxAge: 60 } : { store, prefix, maxAge: 60 },
      );
      const jar: Jar = { cookie: undefined };
      await get(app, "/visit", jar);
      const id = jar.cookie!.slice("session=".length);
      assert.deepEqual(calls, [`set ${expected}${id} 60000`]);
      calls.length = 0;
      assert.equal(await (await get(app, "/visit", jar)).text(), "2");
      assert.deepEqual(calls, [`get ${expected}${id}`, `set ${expected}${id} 60000`]);
      calls.length = 0;
      await get(app, "/logout", jar, "POST");
      assert.deepEqual(calls, [`get ${expected}${id}`, `delete ${expected}${id}`]);
      calls.length = 0;
      for (const cookie of [`session=${id.slice(1)}`, `session=${id}x`, `session=${id.slice(1)}+`])
        assert.equal(await (await app.request("/peek", { headers: { cookie } })).text(), '{"isNew":true}');
      assert.deepEqual(calls, []);
    }
  });

  test("destroy() of a session that had no cookie touches neither the store nor the cookie; rolling sends no empty one", async () => {
    const { store, calls } = recording();
    const { app } = counterApp({ store, rolling: true });
    const out = await app.request("/logout", { method: "POST" });
    assert.equal(await out.text(), "out");
    assert.equal(out.headers.get("set-cookie"), null);
    const peek = await app.request("/peek");
    assert.equal(peek.headers.get("set-cookie"), null);
    assert.deepEqual(calls, []);
  });

  test("rolling with a store: the same id is sent again with the full lifetime; without, it is not sent", async () => {
    for (const rolling of [false, true]) {
      const { store, calls } = recording();
      const { app } = counterApp({ store, maxAge: 300, rolling });
      const jar: Jar = { cookie: undefined };
      await get(app, "/visit", jar);
      const id = jar.cookie!.slice("session=".length);
      calls.length = 0;
      const peek = await app.request("/peek", { headers: { cookie: jar.cookie! } });
      if (rolling) {
        assert.match(peek.headers.get("set-cookie")!, new RegExp(`^session=${id}; Path=/; Max-Age=300;`));
        assert.deepEqual(calls, [`get session:${id}`, `set session:${id} 300000`]);
      } else {
        assert.equal(peek.headers.get("set-cookie"), null);
        assert.deepEqual(calls, [`get session:${id}`]);
      }
    }
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
