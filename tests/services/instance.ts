// One Portico instance of the cross-instance topic tests, on whichever runtime runs this file: rooms
// over a Redis (or NATS) backplane. Prints READY <url>.
import { createApp, defineChannel } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { sse } from "../../src/sse/mod.ts";
import { envVar, serveHere } from "../runtimes/serve-here.ts";

const natsUrl = envVar("NATS_URL");
let brokerErrors = 0;
const onError = (): void => {
  brokerErrors++;
};
const app = createApp({
  pubsub: natsUrl
    ? natsPubSub({ servers: natsUrl, reconnectWait: 100, onError })
    : redisPubSub({ url: envVar("REDIS_URL")!, maxBackoff: 200, onError }),
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
// A room followed as server-sent events: app.subscribe, through the same backplane as the sockets.
app.get("/events/:room", (ctx) =>
  sse(ctx, async (stream) => {
    const stop = app.subscribe(`room:${ctx.request.pathParams.room}`, (message) => {
      void stream.send({ data: typeof message === "string" ? message : `${message.byteLength} bytes` });
    });
    await stream.comment("ready");
    await new Promise((resolve) => stream.signal.addEventListener("abort", resolve, { once: true }));
    stop();
  }),
);
app.get("/stats", () => Response.json({ ...app.topicStats, brokerErrors }));

await serveHere(app);
