import assert from "node:assert/strict";
import { getCookie, getSignedCookie, setCookie, setSignedCookie } from "../../../src/cookie/mod.ts";
import { html } from "../../../src/mod.ts";
import { expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

const SECRETS = ["conformance-secret-at-least-32-chars", "older-conformance-secret-32-chars-x"];

/** The batteries on every runtime: cookies (Web Crypto signatures included), `html`, `ctx.request.ip`. */
export const batteries: Topic = {
  name: "Batteries: cookies, signed cookies, html, the client address",
  routes(app) {
    app.get("/b/cookie", (ctx) => {
      setCookie(ctx, "__Host-theme", getCookie(ctx, "theme") ?? "none");
      setCookie(ctx, "second", "a b;c");
    });
    app.get("/b/sign", async (ctx) => {
      await setSignedCookie(ctx, "session", "user 42", SECRETS);
    });
    app.get("/b/verify", async (ctx) => {
      ctx.response.write(String(await getSignedCookie(ctx, "session", SECRETS)));
    });
    app.get("/b/ip", (ctx) => {
      ctx.response.write(String(ctx.request.ip));
    });
    app.get("/b/html", (ctx) => {
      ctx.response.headers.set("content-type", "text/html; charset=utf-8");
      ctx.response.write(
        html`<p title="${ctx.request.headers.get("x-name")}">${ctx.request.headers.get("x-name")}</p>`.value,
      );
    });
  },
  cases: [
    {
      name: "ctx.request.ip: the peer's address on every server; X-Forwarded-For ignored without trustProxy",
      async run(c) {
        // workerd reads CF-Connecting-IP, which Cloudflare's edge sets (Miniflare sets it too).
        const expected = c.runtime === "in-process" ? "undefined" : "127.0.0.1";
        await expectText(c, "/b/ip", 200, expected, { headers: { "x-forwarded-for": "203.0.113.7" } });
      },
    },
    {
      name: "cookies: read from the request, set with safe defaults and prefix rules, values encoded",
      async run(c) {
        const res = await c.fetch("/b/cookie", { headers: { cookie: "theme=dark%20blue" } });
        assert.equal(res.status, 200);
        assert.deepEqual(res.headers.getSetCookie(), [
          "__Host-theme=dark%20blue; Path=/; HttpOnly; Secure; SameSite=Lax",
          "second=a%20b%3Bc; Path=/; HttpOnly; SameSite=Lax",
        ]);
      },
    },
    {
      name: "signed cookies: Web Crypto HMAC round trip; a tampered value is refused",
      async run(c) {
        const set = (await c.fetch("/b/sign")).headers.getSetCookie()[0]!;
        const pair = set.split(";")[0]!;
        assert.match(pair, /^session=user%2042\.[A-Za-z0-9_-]{43}$/);
        await expectText(c, "/b/verify", 200, "user 42", { headers: { cookie: pair } });
        await expectText(c, "/b/verify", 200, "false", { headers: { cookie: pair.replace("42", "43") } });
        await expectText(c, "/b/verify", 200, "undefined");
      },
    },
    {
      name: "html``: interpolations escaped in content and attributes",
      async run(c) {
        await expectText(
          c,
          "/b/html",
          200,
          `<p title="&quot;&lt;b&gt;&#39;&amp;">&quot;&lt;b&gt;&#39;&amp;</p>`,
          { headers: { "x-name": `"<b>'&` } },
        );
      },
    },
  ],
};
