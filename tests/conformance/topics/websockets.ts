import assert from "node:assert/strict";
import * as v from "valibot";
import WebSocket from "ws";
import { defineChannel, t } from "../../../src/mod.ts";
import { type Client, rawRequest, wsSession } from "../client.ts";
import { expectText, REQUEST_ID } from "../helpers.ts";
import type { Topic } from "../suite.ts";

function origin(c: Client): string {
  if (!c.server) throw new Error("websocket cases need a real server");
  return c.server.origin;
}

// Polls an HTTP route until its text satisfies `done` (events on the server, waited for with a bound).
async function waitFor(
  c: Client,
  path: string,
  done: (text: string) => boolean,
  timeout = 5000,
): Promise<void> {
  const until = Date.now() + timeout;
  for (;;) {
    const text = await (await c.fetch(path)).text();
    if (done(text)) return;
    if (Date.now() > until)
      throw new Error(`${path} never satisfied the condition; last: ${text.slice(-200)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Websockets: block routes, channels, close codes, limits and handshakes. */
export const websockets: Topic = {
  name: "Websockets",
  routes(app) {
    app.ws("/ws/echo", (socket, ctx) => {
      socket.send(`hello ${REQUEST_ID.test(ctx.request.id)}`);
      socket.onMessage((message) => socket.send(message));
    });
    app.ws("/ws/close", (socket) => socket.onMessage(() => socket.close(4001, "bye")));
    // What the handshake said, read once the socket is open (an adapter may let go of its request then).
    app.ws("/ws/handshake", (socket, ctx) =>
      socket.onMessage(() =>
        socket.send(
          JSON.stringify({
            header: ctx.request.header("Sec-WebSocket-Version"),
            headers: ctx.request.headers.get("sec-websocket-version"),
            missing: ctx.request.header("x-absent"),
            host: ctx.request.header("host") === new URL(ctx.request.url).host,
            path: ctx.request.path,
          }),
        ),
      ),
    );
    const Chat = defineChannel({
      params: {
        path: { room: v.pipe(v.string(), v.minLength(2)) },
        query: { limit: v.optional(t.int32(), 5) },
      },
      errors: { RoomFull: 4090, Forbidden: 403 },
      before: [
        (ch) => {
          if (ch.params.path.room === "secret") throw new ch.errors.Forbidden();
        },
      ],
      onOpen(ch) {
        if (ch.params.path.room === "full") throw new ch.errors.RoomFull();
        ch.send(`joined ${ch.params.path.room} limit ${ch.params.query.limit}`);
      },
      onMessage(ch, message) {
        if (message === "crash") throw new Error("channel crash");
        ch.send(typeof message === "string" ? `${ch.params.path.room}: ${message}` : message);
      },
    });
    app.ws("/ws/chat/:room", Chat);

    // What happened to sockets, for cases to wait on over HTTP.
    const log: string[] = [];
    app.get("/ws-log", (ctx) => {
      ctx.response.write(log.join("\n"));
    });
    const Logged = defineChannel({
      params: { path: { n: t.int32() } },
      onOpen: (ch) => ch.send(`open ${ch.params.path.n}`),
      onClose: (ch, code) => {
        log.push(`closed ${ch.params.path.n} ${code}`);
      },
    });
    app.ws("/ws/logged/:n", Logged);
    const Speaks = defineChannel({ protocols: ["chat.v2", "chat.v1"], onOpen: (ch) => ch.send("spoken") });
    app.ws("/ws/protocols", Speaks);
    // Sends 64 KiB every millisecond, to a client that may not read.
    app.ws("/ws/flood/:id", (socket, ctx) => {
      const chunk = new Uint8Array(64 * 1024);
      const timer = setInterval(() => {
        if (socket.readyState === 1) socket.send(chunk);
        if (socket.readyState !== 1) {
          clearInterval(timer);
          log.push(`flood ${ctx.request.pathParams.id} stopped`);
        }
      }, 1);
    });
    // Never finishes handling a message: a fast sender fills the queue of pending handlers.
    const Slow = defineChannel({ onMessage: () => new Promise<void>(() => {}) });
    app.ws("/ws/slow", Slow);
  },
  cases: [
    {
      name: "a websocket-only path without an upgrade is a 426",
      async run(c) {
        const res = await expectText(c, "/ws/echo", 426, "426 Upgrade Required");
        if (c.keepsHopByHopHeaders) assert.equal(res.headers.get("upgrade"), "websocket");
      },
    },
    {
      needsServer: true,
      name: "ws: a block route echoes text and binary frames",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/echo", {
          send: ["hi", new Uint8Array([1, 2, 255])],
          closeAfter: 3,
        });
        assert.deepEqual(outcome.messages, ["hello true", "hi", [1, 2, 255]]);
        assert.equal(outcome.code, 1000);
      },
    },
    {
      needsServer: true,
      name: "ws: the handshake's headers stay readable while the socket is open (header() and headers)",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/handshake", { send: ["read"], closeAfter: 1 });
        assert.deepEqual(JSON.parse(String(outcome.messages[0])), {
          header: "13",
          headers: "13",
          missing: null,
          host: true,
          path: "/ws/handshake",
        });
      },
    },
    {
      needsServer: true,
      name: "ws: the server closes with a code and reason",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/close", { send: ["bye?"] });
        assert.deepEqual([outcome.code, outcome.reason], [4001, "bye"]);
      },
    },
    {
      needsServer: true,
      name: "ws: a channel gets typed params and answers messages",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/chat/lobby?limit=3", { send: ["hi"], closeAfter: 2 });
        assert.deepEqual(outcome.messages, ["joined lobby limit 3", "lobby: hi"]);
      },
    },
    {
      needsServer: true,
      name: "ws: a channel parameter error closes with 4000 and the message",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/chat/lobby?limit=many");
        assert.deepEqual(
          [outcome.code, outcome.reason],
          [4000, 'Query parameter "limit" cannot be cast from "many" to Int32'],
        );
      },
    },
    {
      needsServer: true,
      name: "ws: a declared error closes with its code, or 4000 outside 3000–4999, and its name",
      async run(c) {
        const full = await wsSession(origin(c), "/ws/chat/full");
        assert.deepEqual([full.code, full.reason], [4090, "Room Full"]);
        const secret = await wsSession(origin(c), "/ws/chat/secret");
        assert.deepEqual([secret.code, secret.reason], [4000, "Forbidden"]);
      },
    },
    {
      needsServer: true,
      name: "ws: an unexpected error closes with 1011",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/chat/lobby", { send: ["crash"] });
        assert.deepEqual(outcome.messages, ["joined lobby limit 5"]);
        assert.equal(outcome.code, 1011);
      },
    },
    {
      needsServer: true,
      name: "ws: a message over the app's size limit (2 MiB here) closes with 1009",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/echo", { send: ["x".repeat(2 * 1024 * 1024 + 1)] });
        assert.equal(outcome.code, 1009);
      },
    },
    {
      needsServer: true,
      name: "ws: a message under the app's size limit passes, whatever the adapter's own default",
      async run(c) {
        const big = "y".repeat(1536 * 1024);
        const outcome = await wsSession(origin(c), "/ws/echo", {
          send: [big],
          closeAfter: 2,
          timeout: 15_000,
        });
        assert.equal(outcome.messages[1], big);
      },
    },
    {
      needsServer: true,
      name: "ws: a channel whose params fail never runs onClose; one that opened does",
      async run(c) {
        const failed = await wsSession(origin(c), "/ws/logged/abc");
        assert.equal(failed.code, 4000);
        const opened = await wsSession(origin(c), "/ws/logged/7", { closeAfter: 1 });
        assert.deepEqual(opened.messages, ["open 7"]);
        await waitFor(c, "/ws-log", (log) => log.includes("closed 7 "));
        assert.doesNotMatch(await (await c.fetch("/ws-log")).text(), /closed abc|closed undefined/);
      },
    },
    {
      needsServer: true,
      name: "ws: only the app chooses a subprotocol, among those the client offers",
      async run(c) {
        const handshake = (path: string, protocols: string) =>
          rawRequest(origin(c), path, {
            connection: "Upgrade",
            upgrade: "websocket",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
            "sec-websocket-protocol": protocols,
          });
        const chosen = await handshake("/ws/protocols", "graphql-ws, chat.v1");
        assert.deepEqual([chosen.status, chosen.headers["sec-websocket-protocol"]], [101, "chat.v1"]);
        const preferred = await handshake("/ws/protocols", "chat.v1, chat.v2");
        assert.equal(preferred.headers["sec-websocket-protocol"], "chat.v2");
        const none = await handshake("/ws/echo", "graphql-ws, chat");
        assert.deepEqual([none.status, none.headers["sec-websocket-protocol"]], [101, undefined]);
        const refused = await handshake("/ws/protocols", "graphql-ws");
        assert.equal(refused.status, 400);
      },
    },
    {
      needsServer: true,
      name: "ws: a client that sends faster than its handlers finish is closed with 1008",
      async run(c) {
        // One more than `limits.wsPendingMessages` (256). A client that keeps sending after the close
        // gets a reset (1006) on Deno, which closes the stream with unread data: see the README.
        const many = Array.from({ length: 257 }, (_, i) => `m${i}`);
        const outcome = await wsSession(origin(c), "/ws/slow", { send: many, timeout: 15_000 });
        assert.equal(outcome.code, 1008);
      },
    },
    {
      needsServer: true,
      name: "ws: a client that does not read is closed with 1008 once 4 MiB are queued",
      async run(c) {
        const id = String(Math.random()).slice(2);
        const ws = new WebSocket(`${origin(c).replace(/^http/, "ws")}/ws/flood/${id}`);
        const closed = new Promise<number>((resolve) => ws.on("close", (code: number) => resolve(code)));
        ws.on("error", () => {});
        await new Promise((resolve) => ws.once("open", resolve));
        const tcp = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
        tcp.pause();
        if (c.runtime === "workerd") {
          // Documented exception: workerd's WebSocket reports no send buffer, so Portico cannot see
          // a client that does not read (the platform bounds it). Checked, so that it is noticed
          // the day workerd reports one.
          await assert.rejects(waitFor(c, "/ws-log", (log) => log.includes(`flood ${id} stopped`), 1500));
          ws.terminate();
          return;
        }
        await waitFor(c, "/ws-log", (log) => log.includes(`flood ${id} stopped`), 20_000);
        tcp.resume();
        assert.equal(await closed, 1008);
      },
    },
    {
      needsServer: true,
      name: "ws: an upgrade to an unknown path is an HTTP 404",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/nowhere");
        assert.equal(outcome.status, 404);
      },
    },
    {
      needsServer: true,
      name: "ws: a handshake with another version is a 426 naming version 13",
      async run(c) {
        const res = await rawRequest(origin(c), "/ws/echo", {
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "8",
          "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        });
        assert.equal(res.status, 426);
        assert.equal(res.headers["sec-websocket-version"], "13");
      },
    },
  ],
};
