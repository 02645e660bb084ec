// Websocket routes in the contract: an AsyncAPI 3.0 document from the same declarations, checked by
// the AsyncAPI project's own parser, and the OpenAPI document's `x-portico-websocket` extension.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Parser } from "@asyncapi/parser";
import * as v from "valibot";
import { createApp, defineChannel, defineRoutes, t } from "../../src/mod.ts";
import { asyncapi, openapi } from "../../src/openapi/mod.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const Room = defineChannel({
  doc: { description: "A chat room.", tags: ["chat"] },
  params: {
    path: { room: v.picklist(["lobby", "dev"]) },
    query: { limit: v.optional(t.int32()) },
    headers: { "x-user": v.string() },
  },
  errors: { RoomFull: 4090, Forbidden: 403 },
  messages: {
    in: v.variant("type", [
      v.object({ type: v.literal("say"), text: v.string() }),
      v.object({ type: v.literal("leave") }),
    ]),
    out: { from: v.string(), text: v.string() },
  },
});
const Hidden = defineChannel({ doc: { hidden: true } });

function build() {
  const app = createApp();
  app.mount("/", defineRoutes({ chatRoom: ["WS", "/chat/:room", Room] }));
  app.ws("/echo", (socket) => socket.onMessage((message) => socket.send(message)));
  app.ws("/secret", Hidden);
  return app;
}

test("asyncapi(): a channel per websocket route, its messages and both directions", async () => {
  const doc: Json = asyncapi(build(), {
    info: { title: "Chat", version: "1.0.0" },
    servers: { local: { host: "localhost:3000", protocol: "ws" } },
  });
  assert.equal(doc.asyncapi, "3.0.0");
  assert.deepEqual(Object.keys(doc.channels), ["chatRoom", "echo"]);
  const room = doc.channels.chatRoom;
  assert.equal(room.address, "/chat/{room}");
  assert.equal(room.title, "Chat room", "the same default as the OpenAPI summary");
  assert.deepEqual(room.parameters.room.enum, ["lobby", "dev"]);
  assert.equal(room.bindings.ws.query.properties.limit.format, "int32");
  assert.deepEqual(room.bindings.ws.headers.required, ["x-user"]);
  assert.equal(room["x-close-codes"]["4090"], "RoomFull");
  assert.match(room["x-close-codes"]["4000"], /PathParamsError.*Forbidden/);
  assert.ok(room["x-close-codes"]["1007"]);
  assert.deepEqual(room.messages.out.payload.required, ["from", "text"]);
  assert.deepEqual(Object.keys(doc.operations), ["chatRoom.receive", "chatRoom.send"]);
  assert.equal(doc.operations["chatRoom.receive"].action, "receive");
  assert.equal(doc.channels.echo.messages, undefined);
  assert.equal(doc.channels.echo["x-close-codes"]["1007"], undefined);

  // The AsyncAPI project's parser: no error, no warning (its one hint asks for 3.1, the contract says 3.0).
  const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
  const problems = diagnostics.filter((diagnostic) => diagnostic.severity < 2);
  assert.deepEqual(
    problems.map((diagnostic) => `${diagnostic.code}: ${diagnostic.message} at ${diagnostic.path.join(".")}`),
    [],
  );
  assert.ok(document);
  assert.equal(document.channels().get("chatRoom")?.messages().all().length, 2);
});

test("openapi(): each websocket route under its path's x-portico-websocket, hidden ones left out", () => {
  const doc: Json = openapi(build(), { info: { title: "Chat", version: "1.0.0" } });
  const room = doc.paths["/chat/{room}"]["x-portico-websocket"];
  assert.equal(room.operationId, "chatRoom");
  assert.deepEqual(
    room.parameters.map((parameter: Json) => [parameter.in, parameter.name]),
    [
      ["path", "room"],
      ["query", "limit"],
      ["header", "x-user"],
    ],
  );
  assert.equal(room.closeCodes["4090"], "RoomFull");
  assert.equal(room.messages.in.anyOf?.length ?? room.messages.in.oneOf.length, 2);
  assert.ok(doc.paths["/echo"]["x-portico-websocket"]);
  assert.equal(doc.paths["/secret"], undefined);
});
