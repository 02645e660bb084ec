import assert from "node:assert/strict";
import * as v from "valibot";
import { basicAuth, bearerAuth } from "../../../src/middleware/mod.ts";
import { defineChannel, defineEndpoint, t } from "../../../src/mod.ts";
import { type Client, wsSession } from "../client.ts";
import { json } from "../helpers.ts";
import type { Topic } from "../suite.ts";

function origin(c: Client): string {
  if (!c.server) throw new Error("websocket cases need a real server");
  return c.server.origin;
}

// A channel with declared messages: `in` validated on receipt, `out` sent as JSON.
const Say = v.variant("type", [
  v.object({ type: v.literal("say"), text: v.pipe(v.string(), v.minLength(1)) }),
  v.object({ type: v.literal("typing") }),
]);
const Said = v.object({ from: v.string(), text: v.string(), at: t.int32() });

/** Header and cookie params (over HTTP and on an upgrade), and channels with declared messages. */
export const channels: Topic = {
  name: "Header and cookie params, credentials, channel messages",
  routes(app) {
    const Whoami = defineEndpoint({
      params: {
        headers: { "X-Api-Key": v.pipe(v.string(), v.minLength(8)), "x-version": v.optional(t.int32(), 1) },
        cookies: { theme: v.optional(v.picklist(["dark", "light"])), n: v.optional(t.int32()) },
      },
      call: ({ params }) => Response.json({ ...params.headers, ...params.cookies }),
    });
    app.get("/params/whoami", Whoami);
    app.on("/params/bearer", (r) =>
      r.use(bearerAuth({ token: "s3cret-token" })).get("/", () => new Response("in")),
    );
    app.on("/params/basic", (r) =>
      r.use(basicAuth({ username: "ada", password: "pä:ss" })).get("/", () => new Response("in")),
    );
    const Room = defineChannel({
      params: {
        path: { room: v.string() },
        headers: { "x-user": v.optional(v.pipe(v.string(), v.minLength(2)), "anonymous") },
        cookies: { theme: v.optional(v.picklist(["dark", "light"])) },
      },
      messages: { in: Say, out: Said },
      onOpen: (ch) =>
        ch.send({
          from: "server",
          text: `${ch.params.headers["x-user"]} ${ch.params.cookies.theme ?? "-"}`,
          at: 0,
        }),
      onMessage(ch, message) {
        if (message.type === "say") ch.send({ from: ch.params.headers["x-user"], text: message.text, at: 1 });
      },
    });
    app.ws("/channels/room/:room", Room);
    // Answers an invalid message itself, instead of closing.
    const Lenient = defineChannel({
      messages: { in: { n: t.int32() }, out: { ok: v.boolean(), error: v.optional(v.string()) } },
      onMessage: (ch, message) => ch.send({ ok: message.n > 0 }),
      onInvalidMessage: (ch, invalid) => ch.send({ ok: false, error: invalid.message }),
    });
    app.ws("/channels/lenient", Lenient);
  },
  cases: [
    {
      name: "header params match in any case, cookie params are decoded; both cast and validated",
      async run(c) {
        const [status, body] = await json(c, "/params/whoami", {
          headers: { "x-api-KEY": "secret-123", "X-Version": "3", cookie: "theme=dark; n=%34%32" },
        });
        assert.equal(status, 200);
        assert.deepEqual(body, { "X-Api-Key": "secret-123", "x-version": 3, theme: "dark", n: 42 });
      },
    },
    {
      name: "a bad header or cookie is a 400 named by its source that never shows the value",
      async run(c) {
        const [status, body] = await json(c, "/params/whoami", { headers: { "x-api-key": "hunter2" } });
        assert.equal(status, 400);
        assert.deepEqual(
          (body as { error: { name: string; message: string } }).error.name,
          "Header Params Error",
        );
        const [cookieStatus, cookieBody] = await json(c, "/params/whoami", {
          headers: { "x-api-key": "secret-123", cookie: "n=hunter2" },
        });
        assert.equal(cookieStatus, 400);
        assert.equal(
          (cookieBody as { error: { message: string } }).error.message,
          'Cookie "n" cannot be cast to Int32',
        );
        assert.ok(!JSON.stringify([body, cookieBody]).includes("hunter2"));
      },
    },
    {
      name: "bearerAuth and basicAuth: the right credentials pass, others get a 401 and the challenge",
      async run(c) {
        const bearer = await c.fetch("/params/bearer", { headers: { authorization: "Bearer s3cret-token" } });
        assert.deepEqual([bearer.status, await bearer.text()], [200, "in"]);
        const wrong = await c.fetch("/params/bearer", { headers: { authorization: "Bearer nope" } });
        await wrong.arrayBuffer();
        assert.deepEqual(
          [wrong.status, wrong.headers.get("www-authenticate")],
          [401, 'Bearer realm="api", error="invalid_token"'],
        );
        const good = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode("ada:pä:ss")))}`;
        const basic = await c.fetch("/params/basic", { headers: { authorization: good } });
        assert.deepEqual([basic.status, await basic.text()], [200, "in"]);
        const none = await c.fetch("/params/basic");
        await none.arrayBuffer();
        assert.deepEqual(
          [none.status, none.headers.get("www-authenticate")],
          [401, 'Basic realm="api", charset="UTF-8"'],
        );
      },
    },
    {
      needsServer: true,
      name: "channel messages: a valid message reaches onMessage typed; send writes the declared JSON",
      async run(c) {
        const outcome = await wsSession(origin(c), "/channels/room/a", {
          send: [JSON.stringify({ type: "typing" }), JSON.stringify({ type: "say", text: "hi" })],
          closeAfter: 2,
          headers: { "X-User": "ada", cookie: "theme=dark" },
        });
        assert.deepEqual(
          outcome.messages.map((m) => JSON.parse(String(m))),
          [
            { from: "server", text: "ada dark", at: 0 },
            { from: "ada", text: "hi", at: 1 },
          ],
        );
      },
    },
    {
      needsServer: true,
      name: "channel messages: one that fails its schema closes with 1007 and the first issue",
      async run(c) {
        const invalid = await wsSession(origin(c), "/channels/room/a", {
          send: [JSON.stringify({ type: "say", text: "" })],
        });
        assert.equal(invalid.code, 1007);
        assert.match(invalid.reason, /^Message "text" is invalid: /);
        const unknown = await wsSession(origin(c), "/channels/room/a", {
          send: [JSON.stringify({ type: "shout" })],
        });
        assert.equal(unknown.code, 1007);
        assert.match(unknown.reason, /^Message "type" is invalid/);
      },
    },
    {
      needsServer: true,
      name: "channel messages: not JSON, not an object, binary, or a prototype key: 1007, said plainly",
      async run(c) {
        for (const [frame, reason] of [
          ["{nope", "Message is not JSON"],
          ["[1,2]", "Message must be an object"],
          [new Uint8Array([1, 2]), "Message must be a JSON text frame, not binary"],
          ['{"type":"say","text":"x","__proto__":{"a":1}}', 'Message "__proto__" is not allowed'],
        ] as const) {
          const outcome = await wsSession(origin(c), "/channels/room/a", { send: [frame] });
          assert.deepEqual([outcome.code, outcome.reason], [1007, reason], String(frame));
        }
      },
    },
    {
      needsServer: true,
      name: "channel messages: a long first issue is cut to fit a close frame (123 bytes)",
      async run(c) {
        const outcome = await wsSession(origin(c), "/channels/room/a", {
          send: [JSON.stringify({ type: "say", ["é".repeat(200)]: 1 })],
        });
        assert.equal(outcome.code, 1007);
        assert.ok(new TextEncoder().encode(outcome.reason).length <= 123);
      },
    },
    {
      needsServer: true,
      name: "channel messages: onInvalidMessage answers instead of closing",
      async run(c) {
        const outcome = await wsSession(origin(c), "/channels/lenient", {
          send: ['{"n":"x"}', '{"n":2}'],
          closeAfter: 2,
        });
        assert.deepEqual(
          outcome.messages.map((m) => JSON.parse(String(m))),
          [{ ok: false, error: 'Message "n" cannot be cast from "x" to Int32' }, { ok: true }],
        );
        assert.equal(outcome.code, 1000);
      },
    },
    {
      needsServer: true,
      name: "channel params: a header that fails its schema closes with 4000, never showing the value",
      async run(c) {
        const outcome = await wsSession(origin(c), "/channels/room/a", { headers: { "x-user": "z" } });
        assert.deepEqual(
          [outcome.code, outcome.reason],
          [4000, 'Header "x-user" is invalid: expected length >=2'],
        );
      },
    },
  ],
};
