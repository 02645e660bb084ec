import assert from "node:assert/strict";
import { type Client, rawRequest, wsSession } from "./client.ts";
import type { Case } from "./routing-cases.ts";

function origin(c: Client): string {
  if (!c.server) throw new Error("websocket cases need a real server");
  return c.server.origin;
}

/** Websockets and channels over a real server: the same on every runtime. */
export const websocketCases: Case[] = [
  {
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
    name: "ws: the server closes with a code and reason",
    async run(c) {
      const outcome = await wsSession(origin(c), "/ws/close", { send: ["bye?"] });
      assert.deepEqual([outcome.code, outcome.reason], [4001, "bye"]);
    },
  },
  {
    name: "ws: a channel gets typed params and answers messages",
    async run(c) {
      const outcome = await wsSession(origin(c), "/ws/chat/lobby?limit=3", { send: ["hi"], closeAfter: 2 });
      assert.deepEqual(outcome.messages, ["joined lobby limit 3", "lobby: hi"]);
    },
  },
  {
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
    name: "ws: a declared error closes with its code, or 4000 outside 3000–4999, and its name",
    async run(c) {
      const full = await wsSession(origin(c), "/ws/chat/full");
      assert.deepEqual([full.code, full.reason], [4090, "Room Full"]);
      const secret = await wsSession(origin(c), "/ws/chat/secret");
      assert.deepEqual([secret.code, secret.reason], [4000, "Forbidden"]);
    },
  },
  {
    name: "ws: an unexpected error closes with 1011",
    async run(c) {
      const outcome = await wsSession(origin(c), "/ws/chat/lobby", { send: ["crash"] });
      assert.deepEqual(outcome.messages, ["joined lobby limit 5"]);
      assert.equal(outcome.code, 1011);
    },
  },
  {
    name: "ws: a message over the size limit closes with 1009",
    async run(c) {
      const outcome = await wsSession(origin(c), "/ws/echo", { send: ["x".repeat(1024 * 1024 + 1)] });
      assert.equal(outcome.code, 1009);
    },
  },
  {
    name: "ws: an upgrade to an unknown path is an HTTP 404",
    async run(c) {
      const outcome = await wsSession(origin(c), "/ws/nowhere");
      assert.equal(outcome.status, 404);
    },
  },
  {
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
];
