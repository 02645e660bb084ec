// Topics with a history and presence, on every runtime, behind the app's middleware: a member that
// leaves without a close frame, and one that comes back with the last position it saw.
import assert from "node:assert/strict";
import { secureHeaders } from "../../../src/middleware/mod.ts";
import type { Recovery } from "../../../src/mod.ts";
import { openMember } from "../client.ts";
import type { Topic } from "../suite.ts";

const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

/** `kept:` topics keep a history (fixture-app.ts): replay by position, and who is in the room. */
export const recovery: Topic = {
  name: "Topics with a history and presence: replay after a member left midway, who is in the room",
  routes(app) {
    app.on("/kept", (kept) => {
      kept.use(secureHeaders());
      // A member: each message with its position; with `since`, what it missed first, then how it went.
      kept.ws("/:room", async (socket, ctx) => {
        const query = new URLSearchParams(ctx.request.query);
        socket.send("ready");
        const recovery = await socket.subscribe(`kept:${ctx.request.pathParams.room}`, {
          since: query.get("since") ?? undefined,
          send: (message, position) => socket.send(`${position} ${String(message)}`),
          presence: { name: query.get("name") },
        });
        if (query.has("since")) socket.send(`recovery ${JSON.stringify(recovery)}`);
      });
      kept.post("/:room/say", async (ctx) => {
        app.publish(`kept:${ctx.request.pathParams.room}`, await ctx.request.raw.text());
      });
      kept.get("/:room/presence", async (ctx) => {
        const { members } = await app.presence(`kept:${ctx.request.pathParams.room}`);
        return Response.json(members.map((member) => (member.data as { name: string }).name).sort());
      });
    });
  },
  cases: [
    {
      name: "a member that left without a close frame comes back with its position: it gets what it missed, in order, and presence follows",
      needsServer: true,
      async run(c) {
        const origin = c.server!.origin;
        const room = `k${Math.random().toString(36).slice(2, 8)}`;
        const names = async () => (await (await c.fetch(`/kept/${room}/presence`)).json()) as string[];
        const say = (text: string) => c.fetch(`/kept/${room}/say`, { method: "POST", body: text });
        const ann = await openMember(`${origin}/kept/${room}?name=ann`);
        for (let i = 0; i < 20 && (await names()).length === 0; i++) await settle(25);
        assert.deepEqual(await names(), ["ann"]);
        if (c.runtime === "workerd") return; // Topics reach no other connection on a plain Worker (pubsub.ts).
        await say("m1");
        await say("m2");
        for (let i = 0; i < 40 && ann.got.length < 2; i++) await settle(25);
        assert.deepEqual(
          ann.got.map((got) => String(got).split(" ")[1]),
          ["m1", "m2"],
        );
        const last = String(ann.got[1]).split(" ")[0]!;
        ann.ws.terminate(); // no close frame: the server finds out from the connection
        for (let i = 0; i < 40 && (await names()).length > 0; i++) await settle(25);
        assert.deepEqual(await names(), [], "a member that left is gone from presence");
        await say("m3");
        await say("m4");
        const back = await openMember(`${origin}/kept/${room}?name=ann&since=${encodeURIComponent(last)}`);
        for (let i = 0; i < 40 && back.got.length < 3; i++) await settle(25);
        const [m3, m4, outcome] = back.got.map(String);
        assert.deepEqual([m3?.split(" ")[1], m4?.split(" ")[1]], ["m3", "m4"]);
        assert.deepEqual(JSON.parse(outcome!.slice("recovery ".length)) as Recovery, {
          recovered: true,
          replayed: 2,
        });
        // Positions count on without a hole.
        const seq = (got: string) => Number(got.split(" ")[0]!.split(":")[1]);
        const first = seq(String(ann.got[0]));
        assert.deepEqual(
          [seq(String(ann.got[1])), seq(m3!), seq(m4!)].map((n) => n - first),
          [1, 2, 3],
        );
        assert.deepEqual(await names(), ["ann"]);
        back.ws.close();
      },
    },
  ],
};
