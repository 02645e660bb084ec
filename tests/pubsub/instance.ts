// One Portico instance of the cross-instance topic tests, on whichever runtime runs this file: rooms
// over a Redis (or NATS) backplane. Prints READY <url>.
import { createApp, defineChannel } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";

declare const Bun: { serve(options: object): { url: URL } } | undefined;
declare const Deno:
  | { env: { get(name: string): string | undefined }; serve(options: object, handler: unknown): unknown }
  | undefined;

const env = (name: string): string | undefined =>
  typeof Deno !== "undefined"
    ? Deno.env.get(name)
    : (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];

const natsUrl = env("NATS_URL");
let brokerErrors = 0;
const onError = (): void => {
  brokerErrors++;
};
const app = createApp({
  pubsub: natsUrl
    ? natsPubSub({ servers: natsUrl, reconnectWait: 100, onError })
    : redisPubSub({ url: env("REDIS_URL")!, maxBackoff: 200, onError }),
});
const Room = defineChannel({
  onOpen(ch) {
    ch.subscribe(`room:${ch.context.request.pathParams.room}`);
    ch.send("ready");
  },
  onMessage(ch, message) {
    ch.publish(`room:${ch.context.request.pathParams.room}`, message);
  },
});
app.ws("/room/:room", Room);
app.post("/publish/:room", async (ctx) => {
  const body = new Uint8Array(await ctx.request.raw.arrayBuffer());
  const binary = ctx.request.headers.get("content-type") === "application/octet-stream";
  app.publish(`room:${ctx.request.pathParams.room}`, binary ? body : new TextDecoder().decode(body));
});
app.get("/stats", () => Response.json({ ...app.topicStats, brokerErrors }));

if (typeof Bun !== "undefined") {
  const { serve } = await import("../../src/adapters/bun.ts");
  console.log(`READY ${serve(app, { port: 0, hostname: "127.0.0.1" }).url.origin}`);
} else if (typeof Deno !== "undefined") {
  const { serve } = await import("../../src/adapters/deno.ts");
  console.log(`READY ${serve(app, { port: 0, hostname: "127.0.0.1" }).url.origin}`);
} else {
  const { serve } = await import("../../src/adapters/node.ts");
  console.log(`READY ${(await serve(app, { port: 0, hostname: "127.0.0.1" })).url.origin}`);
}
