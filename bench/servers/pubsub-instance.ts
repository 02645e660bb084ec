// A Portico instance for bench/pubsub.ts, on whichever runtime runs it: `/bench?topics=N` subscribes its
// socket to t0…t(N-1); a message "topic text" is published to that topic. Backplane from REDIS_URL or
// NATS_URL (none: in-process).
import { createApp } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { envVar, serveHere } from "../../tests/runtimes/serve-here.ts";

const redis = envVar("REDIS_URL");
const nats = envVar("NATS_URL");
const app = createApp({
  pubsub: redis ? redisPubSub({ url: redis }) : nats ? natsPubSub({ servers: nats }) : undefined,
});
app.ws("/bench", (socket, ctx) => {
  const topics = Number(new URLSearchParams(ctx.request.query).get("topics") ?? 1);
  for (let i = 0; i < topics; i++) socket.subscribe(`t${i}`);
  socket.onMessage((message) => {
    const text = String(message);
    socket.publish(text.slice(0, text.indexOf(" ")), text);
  });
  socket.send("ready");
});

await serveHere(app);
