import assert from "node:assert/strict";
import * as v from "valibot";
import { defineChannel, t } from "../../../src/mod.ts";
import { type Client, rawRequest, wsSession } from "../client.ts";
import { expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

function origin(c: Client): string {
  if (!c.server) throw new Error("websocket cases need a real server");
  return c.server.origin;
}

/** Websockets: block routes, channels, close codes, limits and handshakes. */
export const websockets: Topic = {
  name: "Websockets",
  routes(app) {
    app.ws("/ws/echo", (socket, ctx) => {
      socket.send(`hello ${ctx.request.id.length}`);
      socket.onMessage((message) => socket.send(message));
    });
    app.ws("/ws/close", (socket) => socket.onMessage(() => socket.close(4001, "bye")));
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
        assert.deepEqual(outcome.messages, ["hello 36", "hi", [1, 2, 255]]);
        assert.equal(outcome.code, 1000);
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
      name: "ws: a message over the size limit closes with 1009",
      async run(c) {
        const outcome = await wsSession(origin(c), "/ws/echo", { send: ["x".repeat(1024 * 1024 + 1)] });
        assert.equal(outcome.code, 1009);
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
