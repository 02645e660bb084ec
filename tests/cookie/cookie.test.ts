import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  deleteCookie,
  getCookie,
  getSignedCookie,
  setCookie,
  setSignedCookie,
} from "../../src/cookie/mod.ts";
import { type Context, createApp } from "../../src/mod.ts";

const SECRET = "a-secret-of-at-least-thirty-two-chars!";
const OLD_SECRET = "the-previous-secret-also-32-chars-long";

// Runs `handler` on a request with these cookies; resolves to the response's Set-Cookie values and body.
async function run(handler: (ctx: Context) => unknown, cookie?: string) {
  const app = createApp({ logger: { error: () => {} } });
  app.get("/", async (ctx) => {
    const result = await handler(ctx);
    if (typeof result === "string") ctx.response.write(result);
  });
  const res = await app.request("/", cookie === undefined ? {} : { headers: { cookie } });
  return { status: res.status, cookies: res.headers.getSetCookie(), body: await res.text() };
}

describe("getCookie", () => {
  test("reads one cookie or all of them; quoted and percent-encoded values decoded; the first of a name wins", async () => {
    const { body } = await run(
      (ctx) =>
        JSON.stringify({
          one: getCookie(ctx, "a"),
          missing: getCookie(ctx, "zz") ?? null,
          all: getCookie(ctx),
        }),
      'a=1; b="quoted"; c=caf%C3%A9; a=2; bad name=x; =y; d=%E0%A4%A',
    );
    assert.deepEqual(JSON.parse(body), {
      one: "1",
      missing: null,
      all: { a: "1", b: "quoted", c: "café", d: "%E0%A4%A" },
    });
  });

  test("quotes are taken off only when they enclose the value: an empty quoted value, a stray quote at either end", async () => {
    const { body } = await run(
      (ctx) => JSON.stringify(getCookie(ctx)),
      'empty=""; tail=ab"; head="ab; one="; both="x"',
    );
    assert.deepEqual(JSON.parse(body), { empty: "", tail: 'ab"', head: '"ab', one: '"', both: "x" });
  });

  test("the record has no inherited keys", async () => {
    const { body } = await run((ctx) => {
      const all = getCookie(ctx);
      return `${Object.getPrototypeOf(all)}|${"toString" in all}|${getCookie(ctx, "constructor")}|${Object.getOwnPropertyDescriptor(all, "__proto__")?.value}`;
    }, "__proto__=x");
    assert.equal(body, "null|false|undefined|x");
  });
});

describe("setCookie", () => {
  test("safe defaults: Path=/, HttpOnly, SameSite=Lax; the value is percent-encoded", async () => {
    const { cookies } = await run((ctx) => setCookie(ctx, "theme", "dark; Domain=evil.example"));
    assert.deepEqual(cookies, ["theme=dark%3B%20Domain%3Devil.example; Path=/; HttpOnly; SameSite=Lax"]);
  });

  test("every attribute, and several cookies on one response", async () => {
    const { cookies } = await run((ctx) => {
      setCookie(ctx, "a", "1", {
        domain: "example.com",
        path: "/app",
        maxAge: 3600,
        expires: new Date(Date.UTC(2030, 0, 1)),
        httpOnly: false,
        secure: true,
        sameSite: "Strict",
        partitioned: true,
        priority: "High",
      });
      setCookie(ctx, "b", "2");
      setCookie(ctx, "c", "3", { priority: "Low" });
      setCookie(ctx, "d", "4", { priority: "Medium" });
    });
    assert.deepEqual(cookies, [
      "a=1; Path=/app; Domain=example.com; Max-Age=3600; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Secure; SameSite=Strict; Partitioned; Priority=High",
      "b=2; Path=/; HttpOnly; SameSite=Lax",
      "c=3; Path=/; HttpOnly; SameSite=Lax; Priority=Low",
      "d=4; Path=/; HttpOnly; SameSite=Lax; Priority=Medium",
    ]);
  });

  test("names and attributes that would inject are refused (500, nothing sent)", async () => {
    const hostile: [string, Parameters<typeof setCookie>[3]][] = [
      ["a;b", {}],
      ["a b", {}],
      ["a\r\nSet-Cookie: x", {}],
      ["", {}],
      ["ok", { domain: "example.com; HttpOnly=false" }],
      ["ok", { domain: "exa mple.com" }],
      ["ok", { path: "/a; Domain=evil.example" }],
      ["ok", { path: "/a\nb" }],
      ["ok", { path: "relative" }],
      ["ok", { maxAge: 1.5 }],
      ["ok", { expires: new Date(Number.NaN) }],
      ["ok", { sameSite: "Lax; Secure" as "Lax" }],
      ["ok", { priority: "Urgent" as "High" }],
    ];
    for (const [name, options] of hostile) {
      const { status, cookies } = await run((ctx) => setCookie(ctx, name, "v", options));
      assert.equal(status, 500, `${JSON.stringify(name)} ${JSON.stringify(options)}`);
      assert.deepEqual(cookies, []);
    }
  });

  test("domain: at most 253 characters and 63 a label (RFC 1035), a leading dot allowed; else a clear error", async () => {
    const attempt = (domain: unknown) =>
      run((ctx) => {
        try {
          setCookie(ctx, "ok", "v", { domain: domain as string });
          return "set";
        } catch (error) {
          return String(error);
        }
      });
    const label63 = "a".repeat(63);
    const longest = `${label63}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
    assert.equal(longest.length, 253);
    for (const domain of [
      longest,
      `.${label63}.example`,
      "x",
      "localhost",
      "a-b.c0",
      "123.example",
      "xn--bcher-kva.example",
    ]) {
      const { cookies, body } = await attempt(domain);
      assert.equal(body, "set", domain);
      assert.deepEqual(cookies, [`ok=v; Path=/; Domain=${domain}; HttpOnly; SameSite=Lax`]);
    }
    for (const domain of [
      `${longest}d`,
      `${longest.slice(1)}.e`,
      `${"a".repeat(64)}.example`,
      "-a.example",
      "a-.example",
      "a..b",
      "example.com.",
      "..example.com",
      ".",
      "",
      "a_b.example",
      "\u00e9.example",
      123,
      null,
    ]) {
      const { status, cookies, body } = await attempt(domain);
      assert.equal(status, 200);
      assert.deepEqual(cookies, []);
      assert.equal(body, `TypeError: Cookie ok: invalid domain ${JSON.stringify(domain)}`, String(domain));
    }
  });

  test("prefix rules: __Secure- and __Host- get Secure; __Host- needs path / and no domain", async () => {
    assert.deepEqual((await run((ctx) => setCookie(ctx, "__Host-id", "1"))).cookies, [
      "__Host-id=1; Path=/; HttpOnly; Secure; SameSite=Lax",
    ]);
    assert.deepEqual((await run((ctx) => setCookie(ctx, "__Secure-id", "1", { path: "/x" }))).cookies, [
      "__Secure-id=1; Path=/x; HttpOnly; Secure; SameSite=Lax",
    ]);
    for (const options of [{ path: "/x" }, { domain: "example.com" }, { secure: false }]) {
      assert.equal((await run((ctx) => setCookie(ctx, "__Host-id", "1", options))).status, 500);
    }
    assert.equal((await run((ctx) => setCookie(ctx, "__Secure-id", "1", { secure: false }))).status, 500);
  });

  test("SameSite=None and Partitioned need Secure: added when left out, refused when turned off", async () => {
    assert.deepEqual((await run((ctx) => setCookie(ctx, "a", "1", { sameSite: "None" }))).cookies, [
      "a=1; Path=/; HttpOnly; Secure; SameSite=None",
    ]);
    assert.equal(
      (await run((ctx) => setCookie(ctx, "a", "1", { sameSite: "None", secure: false }))).status,
      500,
    );
    assert.equal(
      (await run((ctx) => setCookie(ctx, "a", "1", { partitioned: true, secure: false }))).status,
      500,
    );
  });
});

describe("deleteCookie", () => {
  test("expires the cookie with its path and domain, and returns the value it had", async () => {
    const { cookies, body } = await run(
      (ctx) => deleteCookie(ctx, "session", { path: "/app", domain: "example.com" }) ?? "none",
      "session=abc",
    );
    assert.equal(body, "abc");
    assert.deepEqual(cookies, [
      "session=; Path=/app; Domain=example.com; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax",
    ]);
  });
});

describe("signed cookies", () => {
  const signedBy = async (secrets: string | string[], value = "user 42") =>
    (await run((ctx) => setSignedCookie(ctx, "session", value, secrets))).cookies[0]!.split(";")[0]!;

  test("round trip; tampered value or signature is false; absent is undefined", async () => {
    const pair = await signedBy(SECRET);
    assert.match(pair, /^session=user%2042\.[A-Za-z0-9_-]{43}$/);
    const read = async (cookie: string | undefined) =>
      (
        await run(
          async (ctx) => JSON.stringify(await getSignedCookie(ctx, "session", SECRET)) ?? "undefined",
          cookie,
        )
      ).body;
    assert.equal(await read(pair), '"user 42"');
    assert.equal(await read(pair.replace("42", "43")), "false");
    assert.equal(await read(`${pair.slice(0, -2)}AA`), "false");
    assert.equal(await read("session=user%2042"), "false");
    assert.equal(await read("session=user.%%%"), "false");
    assert.equal(await read(undefined), "undefined");
    // An empty value is signed and read back as itself.
    const empty = await signedBy(SECRET, "");
    assert.match(empty, /^session=\.[A-Za-z0-9_-]{43}$/);
    assert.equal(await read(empty), '""');
  });

  test("the signature covers the name: a value moved to another cookie does not verify", async () => {
    const value = (await signedBy(SECRET)).slice("session=".length);
    const { body } = await run(
      async (ctx) => String(await getSignedCookie(ctx, "admin", SECRET)),
      `admin=${value}`,
    );
    assert.equal(body, "false");
  });

  test("key rotation: the first secret signs, any verifies; a retired secret no longer does", async () => {
    const old = await signedBy(OLD_SECRET);
    const verify = async (cookie: string, secrets: string[]) =>
      (await run(async (ctx) => String(await getSignedCookie(ctx, "session", secrets)), cookie)).body;
    assert.equal(await verify(old, [SECRET, OLD_SECRET]), "user 42");
    assert.equal(await verify(old, [SECRET]), "false");
    const current = await signedBy([SECRET, OLD_SECRET]);
    assert.equal(await verify(current, [SECRET]), "user 42");
  });

  test("short or missing secrets are refused", async () => {
    assert.equal((await run((ctx) => setSignedCookie(ctx, "s", "v", "short"))).status, 500);
    assert.equal((await run((ctx) => getSignedCookie(ctx, "s", []))).status, 500);
  });
});
