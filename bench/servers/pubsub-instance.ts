// A Portico instance for bench/pubsub.ts, on whichever runtime runs it: `/bench?topics=N` subscribes its
// socket to t0…t(N-1); a message "topic text" is published to that topic. Backplane from REDIS_URL or
// NATS_URL (none: in-process). For bench/pubsub-peers.ts, the same routes as its peers' instances:
// /room/<room> (what a member sends goes to the rest of its room), POST /publish/<room>?n&size, GET
// /memory; and /kept/<room>?since=<position> for the recovery replay (`kept:` topics keep a history).
import { type Context, createApp } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { envVar, serveHere } from "../../tests/runtimes/serve-here.ts";

const redis = envVar("REDIS_URL");
const nats = envVar("NATS_URL");
const app = createApp({
  pubsub: redis ? redisPubSub({ url: redis }) : nats ? natsPubSub({ servers: nats }) : undefined,
  history: redis ? { topics: ["kept:*"], size: 10_000 } : undefined,
});
const stamp = () => (performance.timeOrigin + performance.now()).toFixed(3);
app.ws("/room/:room", (socket, ctx) => {
  const topic = `room:${ctx.request.pathParams.room}`;
  socket.subscribe(topic);
  socket.onMessage((message) => socket.publish(topic, message));
  socket.send("ready");
});
app.ws("/kept/:room", (socket, ctx) => {
  const since = new URLSearchParams(ctx.request.query).get("since") ?? undefined;
  void socket.subscribe(`kept:${ctx.request.pathParams.room}`, {
    since,
    send: (message, position) => socket.send(`${position} ${String(message)}`),
  });
  socket.send("ready");
});
const publish = (kind: string) => (ctx: Context) => {
  const query = new URLSearchParams(ctx.request.query);
  const n = Number(query.get("n") ?? 1);
  const pad = "x".repeat(Number(query.get("size") ?? 0));
  const topic = `${kind}:${ctx.request.pathParams.room}`;
  for (let i = 0; i < n; i++) app.publish(topic, `${stamp()} ${i} ${pad}`);
  return "ok";
};
app.post("/publish/:room", publish("room"));
app.post("/publish-kept/:room", publish("kept"));
app.get("/memory", () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Response.json(process.memoryUsage());
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
