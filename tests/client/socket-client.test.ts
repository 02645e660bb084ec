// The typed client's channels: `client.room.connect({ path, query, headers })` over a real socket,
// from the routes object and from the OpenAPI document, with typed messages both ways and closes that
// name the declared error, the parameter error or the refused message they stand for.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import * as v from "valibot";
import WebSocket from "ws";
import { serve } from "../../src/adapters/node.ts";
import { createClient, type WebSocketConstructor } from "../../src/client/mod.ts";
import { createApp, defineChannel, defineRoutes, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

const Room = defineChannel({
  params: { path: { room: v.pipe(v.string(), v.minLength(2)) }, query: { limit: v.optional(t.int32(), 5) } },
  errors: { RoomFull: 4090, Banned: 403 },
  messages: {
    in: v.variant("type", [
      v.object({ type: v.literal("say"), text: v.pipe(v.string(), v.minLength(1)) }),
      v.object({ type: v.literal("ban-me") }),
    ]),
    out: { from: v.string(), text: v.string() },
  },
  onOpen(ch) {
    if (ch.params.path.room === "full") throw new ch.errors.RoomFull();
    ch.send({ from: "server", text: `limit ${ch.params.query.limit}` });
  },
  onMessage(ch, message) {
    if (message.type === "ban-me") throw new ch.errors.Banned();
    ch.send({ from: ch.context.request.header("x-user") ?? "anonymous", text: message.text });
  },
});
const Echo = defineChannel({ onMessage: (ch, message) => ch.send(message) });
const api = defineRoutes({ room: ["WS", "/rooms/:room", Room], echo: ["WS", "/echo", Echo] });
const app = createApp();
app.mount("/api", api);
const document = openapi(app, { info: { title: "t", version: "1" } });

let server: Awaited<ReturnType<typeof serve>>;
before(async () => {
  server = await serve(app, { port: 0 });
});
after(() => server.close());

const clients = () => {
  const baseUrl = `http://127.0.0.1:${server.port}/api`;
  const Socket = WebSocket as unknown as WebSocketConstructor;
  return {
    routes: createClient({ baseUrl, routes: api, WebSocket: Socket }),
    document: createClient<typeof api>({ baseUrl, spec: document, WebSocket: Socket }),
  };
};

function next<T>(connection: { onMessage(listener: (message: T) => void): () => void }): Promise<T> {
  return new Promise((resolve) => {
    const remove = connection.onMessage((message) => {
      remove();
      resolve(message);
    });
  });
}

describe("the typed client's channels", () => {
  for (const mode of ["routes", "document"] as const) {
    test(`typed messages both ways, headers on the upgrade (${mode})`, async () => {
      const client = clients()[mode];
      const room = client.room.connect({
        path: { room: "lobby" },
        query: { limit: 3 },
        headers: { "x-user": "ada" },
      });
      const greeting = next(room);
      await room.opened;
      assert.deepEqual(await greeting, { from: "server", text: "limit 3" });
      const answer = next(room);
      room.send({ type: "say", text: "hi" });
      assert.deepEqual(await answer, { from: "ada", text: "hi" });
      room.close();
      assert.equal((await room.closed).code, 1000);
    });

    test(`closes name what they stand for: a declared error, a parameter error, a refused message (${mode})`, async () => {
      const client = clients()[mode];
      const full = await client.room.connect({ path: { room: "full" } }).closed;
      assert.deepEqual([full.code, full.error], [4090, { name: "RoomFull", message: null }]);
      const short = await client.room.connect({ path: { room: "x" } }).closed;
      assert.equal(short.code, 4000);
      assert.deepEqual(short.error, {
        name: "ParamsError",
        message: 'Path parameter "room" is invalid: expected length >=2',
      });
      const banned = client.room.connect({ path: { room: "lobby" } });
      await banned.opened;
      banned.send({ type: "ban-me" });
      const closed = await banned.closed;
      assert.deepEqual([closed.code, closed.error], [4000, { name: "Banned", message: null }]);
      const invalid = client.room.connect({ path: { room: "lobby" } });
      await invalid.opened;
      invalid.send({ type: "say", text: "" } as never);
      const refused = await invalid.closed;
      assert.equal(refused.code, 1007);
      assert.equal(refused.error?.name, "InvalidMessage");
    });

    test(`a channel without declared messages passes raw data (${mode})`, async () => {
      const echo = clients()[mode].echo.connect();
      await echo.opened;
      const back = next(echo);
      echo.send("plain");
      assert.equal(await back, "plain");
      echo.close();
    });
  }

  test("an HTTP route name is not a channel; a missing WebSocket says what to give", async () => {
    const http = defineRoutes({ ping: ["GET", "/ping", () => new Response("pong")] });
    const notChannel = createClient({ baseUrl: `http://127.0.0.1:${server.port}/api`, routes: http });
    const refused = await (
      notChannel.ping as unknown as { connect(): { closed: Promise<{ reason: string }> } }
    ).connect().closed;
    assert.match(refused.reason, /The route named "ping" is not a channel/);
    const client = createClient({ baseUrl: `http://127.0.0.1:${server.port}/api`, routes: api });
    const global = globalThis as { WebSocket?: unknown };
    const saved = global.WebSocket;
    global.WebSocket = undefined;
    try {
      const closed = await client.echo.connect().closed;
      assert.match(closed.reason, /give createClient\(\{ WebSocket \}\)/);
    } finally {
      global.WebSocket = saved;
    }
  });
});
