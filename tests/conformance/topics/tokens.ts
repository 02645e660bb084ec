import assert from "node:assert/strict";
import * as v from "valibot";
import WebSocket from "ws";
import { jwt, signJwt } from "../../../src/middleware/jwt.ts";
import { health, memoryStore, rateLimit } from "../../../src/middleware/mod.ts";
import { defineChannel, defineEndpoint } from "../../../src/mod.ts";
import { session } from "../../../src/session/session.ts";
import { rawRequest } from "../client.ts";
import type { Topic } from "../suite.ts";

const SECRET = "conformance-secret-of-at-least-32-bytes";
const auth = jwt({
  secret: SECRET,
  algorithms: ["HS256"],
  scheme: "Token",
  audience: "conformance",
  claims: v.object({ sub: v.string(), role: v.picklist(["reader", "writer"]) }),
});
const Me = defineEndpoint({
  call: (ep) => Response.json({ sub: auth.claims(ep.context).sub, role: auth.claims(ep.context).role }),
});
// The same tokens, from a browser's websocket: in the offered subprotocols, or the query.
const socketAuth = jwt({
  secret: SECRET,
  algorithms: ["HS256"],
  audience: "conformance",
  websocketToken: ["protocol", "query"],
  claims: v.object({ sub: v.string() }),
});
const Whoami = defineChannel({ onOpen: (ch) => ch.send(`hello ${socketAuth.claims(ch.context).sub}`) });
const Speaking = defineChannel({
  protocols: ["chat.v1"],
  onOpen: (ch) => ch.send(`chat.v1 ${socketAuth.claims(ch.context).sub}`),
});
const b64 = (text: string) => btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** portico/jwt, rateLimit() and health() on every runtime: WebCrypto through jose, a store in the instance. */
export const tokens: Topic = {
  name: "JWT, sessions, rate limits and health",
  routes(app) {
    for (const [prefix, sessions] of [
      ["/sessions/sealed", session({ secret: SECRET, cookie: { path: "/sessions/sealed" } })],
      ["/sessions/stored", session({ store: memoryStore(), cookie: { path: "/sessions/stored" } })],
    ] as const) {
      app.on(prefix, (r) =>
        r
          .use(sessions)
          .get("/visit", (ctx) => {
            const data = ctx.session.data as { visits?: number };
            data.visits = (data.visits ?? 0) + 1;
            return new Response(String(data.visits));
          })
          .post("/login", (ctx) => {
            ctx.session.regenerate();
            return new Response("regenerated");
          })
          .post("/logout", (ctx) => {
            ctx.session.destroy();
            return new Response("destroyed");
          }),
      );
    }
    const checks = health({ app, checks: { up: () => true, down: () => false }, timeoutMs: 500 });
    app.get("/health/live", checks.live);
    app.get("/health/ready", checks.ready);
    app.get("/tokens/me", Me, { use: [auth] });
    app.on("/tokens/ws", (r) =>
      r
        .use(socketAuth)
        .ws("/whoami", Whoami)
        .ws("/speaking", Speaking)
        .get("/plain", () => new Response("not a socket")),
    );
    app.on("/tokens/limited", (r) =>
      r
        .use(
          rateLimit({
            windowMs: 60_000,
            max: 2,
            key: (ctx) => ctx.request.header("x-client") ?? "anonymous",
          }),
        )
        .get("/", () => new Response("counted")),
    );
  },
  cases: [
    {
      name: "sessions: sealed in the cookie (WebCrypto AES-GCM) or kept in a store; tampered and destroyed ones are empty",
      async run(c) {
        for (const kind of ["sealed", "stored"]) {
          const base = `/sessions/${kind}`;
          const visit = async (cookie?: string) => {
            const res = await c.fetch(`${base}/visit`, cookie ? { headers: { cookie } } : {});
            const set = res.headers.getSetCookie()[0]?.split(";")[0];
            return { text: await res.text(), cookie: set ?? cookie };
          };
          const first = await visit();
          assert.equal(first.text, "1", kind);
          const second = await visit(first.cookie);
          assert.equal(second.text, "2", kind);
          const value = second.cookie!.split("=")[1]!;
          const tampered = `session=${value.slice(0, 12)}${value[12] === "x" ? "y" : "x"}${value.slice(13)}`;
          assert.equal((await visit(tampered)).text, "1", `${kind}: tampered`);
          const login = await c.fetch(`${base}/login`, {
            method: "POST",
            headers: { cookie: second.cookie! },
          });
          await login.arrayBuffer();
          const renewed = login.headers.getSetCookie()[0]?.split(";")[0];
          assert.ok(renewed && renewed !== second.cookie, `${kind}: regenerate() gives a new cookie`);
          assert.equal((await visit(renewed)).text, "3", `${kind}: the data is kept`);
          const out = await c.fetch(`${base}/logout`, { method: "POST", headers: { cookie: renewed } });
          await out.arrayBuffer();
          assert.match(out.headers.getSetCookie()[0]!, /^session=; Path=\/sessions\/\w+; Max-Age=0/);
          if (kind === "stored") {
            assert.equal((await visit(renewed)).text, "1", "replayed after destroy(): empty");
            assert.equal((await visit(second.cookie)).text, "1", "the id before regenerate(): gone");
          }
        }
      },
    },
    {
      name: "jwt: a valid token's typed claims reach the endpoint; expired, unsigned or foreign ones are 401s saying why",
      async run(c) {
        const sign = (
          claims: Record<string, unknown>,
          options: { expiresIn?: number; secret?: string } = {},
        ) =>
          signJwt(claims, {
            secret: options.secret ?? SECRET,
            audience: "conformance",
            expiresIn: options.expiresIn ?? 60,
          });
        const good = await c.fetch("/tokens/me", {
          headers: { authorization: `Token ${await sign({ sub: "7", role: "writer" })}` },
        });
        assert.deepEqual([good.status, await good.json()], [200, { sub: "7", role: "writer" }]);
        const refusals: [string, string][] = [
          [await sign({ sub: "7", role: "writer" }, { expiresIn: -5 }), "The token has expired"],
          [await sign({ sub: "7", role: "writer" }, { secret: `${SECRET}!` }), "The token is not valid"],
          [await sign({ sub: "7", role: "admin" }), "The token's claims are not as expected"],
          [
            `${b64('{"alg":"none"}')}.${b64('{"sub":"7","role":"writer","aud":"conformance"}')}.`,
            "The token is not valid",
          ],
        ];
        for (const [token, why] of refusals) {
          const refused = await c.fetch("/tokens/me", { headers: { authorization: `Token ${token}` } });
          await refused.arrayBuffer();
          assert.equal(refused.status, 401, why);
          assert.equal(
            refused.headers.get("www-authenticate"),
            `Token realm="api", error="invalid_token", error_description="${why}"`,
          );
        }
        const none = await c.fetch("/tokens/me");
        await none.arrayBuffer();
        assert.deepEqual([none.status, none.headers.get("www-authenticate")], [401, 'Token realm="api"']);
      },
    },
    {
      name: "jwt({ websocketToken }): a browser's socket carries the token as subprotocols or in the query; the answer never names it",
      needsServer: true,
      async run(c) {
        const origin = c.server!.origin;
        const token = await signJwt(
          { sub: "ada" },
          { secret: SECRET, audience: "conformance", expiresIn: 60 },
        );
        const open = (path: string, protocols?: string[]) =>
          new Promise<{ protocol: string; first: string }>((resolve, reject) => {
            const ws = new WebSocket(`${origin.replace(/^http/, "ws")}${path}`, protocols);
            ws.on("message", (data: Buffer) => {
              resolve({ protocol: ws.protocol, first: data.toString("utf8") });
              ws.close();
            });
            ws.on("unexpected-response", (_request, response) => reject(new Error(`${response.statusCode}`)));
            ws.on("error", reject);
          });
        // As a browser sends it: the marker and the token; the answer names the marker.
        assert.deepEqual(await open("/tokens/ws/whoami", ["bearer", `bearer.${token}`]), {
          protocol: "bearer",
          first: "hello ada",
        });
        // A channel with its own subprotocol keeps choosing it.
        assert.deepEqual(await open("/tokens/ws/speaking", ["chat.v1", "bearer", `bearer.${token}`]), {
          protocol: "chat.v1",
          first: "chat.v1 ada",
        });
        assert.equal((await open(`/tokens/ws/whoami?access_token=${token}`)).first, "hello ada");
        const handshake = (path: string, headers: Record<string, string> = {}) =>
          rawRequest(origin, path, {
            connection: "Upgrade",
            upgrade: "websocket",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
            ...headers,
          });
        const forged = `${token.slice(0, -4)}AAAA`;
        const refused = await handshake("/tokens/ws/whoami", {
          "sec-websocket-protocol": `bearer, bearer.${forged}`,
        });
        assert.equal(refused.status, 401);
        assert.ok(!JSON.stringify(refused).includes(forged), "the refusal does not repeat the token");
        // The channel's refusal of an unspoken subprotocol does not quote the token either.
        const unspoken = await handshake("/tokens/ws/speaking", {
          "sec-websocket-protocol": `graphql-ws, bearer, bearer.${token}`,
        });
        assert.equal(unspoken.status, 400);
        assert.ok(!unspoken.body.includes(token.slice(-20)), unspoken.body);
        assert.equal((await handshake("/tokens/ws/whoami")).status, 401);
        // Nor a short entry that no middleware took (the header carried the token).
        const short = await handshake("/tokens/ws/speaking", {
          authorization: `Bearer ${token}`,
          "sec-websocket-protocol": "graphql-ws, bearer.shortsecret",
        });
        assert.equal(short.status, 400);
        assert.ok(!short.body.includes("shortsecret"), short.body);
        // A header that was sent decides, even of another scheme: the subprotocol is not read then.
        const basic = await handshake("/tokens/ws/whoami", {
          authorization: "Basic YTpi",
          "sec-websocket-protocol": `bearer, bearer.${token}`,
        });
        assert.equal(basic.status, 401);
        // An empty entry (`bearer.`) leaves the query to be read.
        const fallback = await handshake(`/tokens/ws/whoami?access_token=${token}`, {
          "sec-websocket-protocol": "bearer, bearer.",
        });
        assert.equal(fallback.status, 101);
        // Outside an upgrade, neither place is read.
        const plain = await c.fetch(`/tokens/ws/plain?access_token=${token}`, {
          headers: { "sec-websocket-protocol": `bearer, bearer.${token}` },
        });
        await plain.arrayBuffer();
        assert.equal(plain.status, 401);
      },
    },
    {
      name: "rateLimit: two requests a window per client, the headers on each, then a 429 with Retry-After",
      async run(c) {
        const client = crypto.randomUUID();
        const seen: [number, string | null, string | null][] = [];
        for (let i = 0; i < 3; i++) {
          const response = await c.fetch("/tokens/limited", { headers: { "x-client": client } });
          await response.arrayBuffer();
          seen.push([
            response.status,
            response.headers.get("ratelimit-remaining"),
            response.headers.get("retry-after"),
          ]);
        }
        assert.deepEqual(seen, [
          [200, "1", null],
          [200, "0", null],
          [429, "0", "60"],
        ]);
        const other = await c.fetch("/tokens/limited", { headers: { "x-client": crypto.randomUUID() } });
        assert.deepEqual([other.status, await other.text()], [200, "counted"]);
      },
    },
    {
      name: "health: live answers 200; ready is a 503 naming the failed check, the topics connected",
      async run(c) {
        const live = await c.fetch("/health/live");
        assert.deepEqual([live.status, await live.json()], [200, { status: "live" }]);
        const ready = await c.fetch("/health/ready");
        const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }> };
        assert.equal(ready.status, 503);
        assert.deepEqual(
          [body.status, body.checks.up?.ok, body.checks.down?.ok, body.checks.topics?.ok],
          ["not ready", true, false, true],
        );
      },
    },
  ],
};
