// One Portico instance of the cross-instance topic tests, on whichever runtime runs this file: rooms
// over a Redis (REDIS_URL; REDIS_CLUSTER: a cluster's node URLs, comma-separated; REDIS_SENTINEL: a
// Sentinel's URL, master `portico`) or NATS backplane. Prints READY <url>. MAX_QUEUED and PUBLISH_TIMEOUT set the
// backplane's bounds; the fault suite (faults.test.ts) drives /burst, /health and /shutdown. `kept:`
// topics keep a history (over NATS, the server needs JetStream): /kept/:room?since=<position> sends `{"p":position,"m":message}` per
// message, after `{"recovery":…}` when joined with `since`.
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
const bounds = {
  ...(envVar("MAX_QUEUED") ? { maxQueued: Number(envVar("MAX_QUEUED")) } : {}),
  ...(envVar("PUBLISH_TIMEOUT") ? { publishTimeout: Number(envVar("PUBLISH_TIMEOUT")) } : {}),
};
function redisAt() {
  if (envVar("REDIS_CLUSTER")) return { cluster: envVar("REDIS_CLUSTER")!.split(",") };
  if (envVar("REDIS_SENTINEL")) return { sentinel: { name: "portico", nodes: [envVar("REDIS_SENTINEL")!] } };
  return { url: envVar("REDIS_URL")! };
}

const app = createApp({
  pubsub: natsUrl
    ? natsPubSub({ servers: natsUrl, reconnectWait: 100, pingInterval: 500, onError, ...bounds })
    : redisPubSub({ ...redisAt(), maxBackoff: 200, onError, ...bounds }),
  logger: { error: () => {}, info: () => {} },
  history: { topics: ["kept:*"], size: 10_000 },
  ...(envVar("PRESENCE_HEARTBEAT") ? { presence: { heartbeat: Number(envVar("PRESENCE_HEARTBEAT")) } } : {}),
});
// A member of a room's presence, and who is in a room, as every instance sees it.
app.ws("/present/:room", (socket, ctx) => {
  const user = new URLSearchParams(ctx.request.query).get("user");
  void socket.subscribe(`room:${ctx.request.pathParams.room}`, { presence: { user } });
  socket.send("ready");
});
app.get("/presence/:room", async (ctx) =>
  Response.json(await app.presence(`room:${ctx.request.pathParams.room}`)),
);
app.ws("/kept/:room", (socket, ctx) => {
  const since = new URLSearchParams(ctx.request.query).get("since") ?? undefined;
  const send = (message: string | Uint8Array, position: string) =>
    socket.send(JSON.stringify({ p: position, m: message }));
  void socket
    .subscribe(`kept:${ctx.request.pathParams.room}`, { since, send })
    .then((recovery) => socket.send(JSON.stringify({ recovery })));
  socket.send("ready");
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
// A user's socket: tagged with the user, in no topic until the app joins it to one.
app.ws("/user/:user", (socket, ctx) => {
  socket.tag(`user:${ctx.request.pathParams.user}`);
  socket.send("ready");
});
app.post("/control/:user/:op", async (ctx) => {
  const { user, op } = ctx.request.pathParams;
  const target = { tag: `user:${user}` };
  if (op === "kick") app.disconnect(target, 4001, "Signed out");
  else if (op === "join") app.join(target, `room:${await ctx.request.raw.text()}`);
  else app.leave(target, `room:${await ctx.request.raw.text()}`);
});
app.get("/stats", () => Response.json({ ...app.topicStats, brokerErrors }));
app.get("/health", () => Response.json(app.topicHealth()));
// Publishes `n` messages numbered from `from` (`<tag><number> <padding>`, padded to `size` bytes), then
// keeps the event loop busy for `block` ms.
app.post("/burst/:room", (ctx) => {
  const query = new URLSearchParams(ctx.request.query);
  const n = Number(query.get("n") ?? 1);
  const from = Number(query.get("from") ?? 0);
  const tag = query.get("tag") ?? "burst";
  const topic = `${query.get("topic") ?? "room"}:${ctx.request.pathParams.room}`;
  const pad = "x".repeat(Number(query.get("size") ?? 0));
  for (let i = from; i < from + n; i++) app.publish(topic, `${tag}${i} ${pad}`);
  const until = Date.now() + Number(query.get("block") ?? 0);
  while (Date.now() < until) {
    // Busy: a handler doing synchronous work.
  }
  return Response.json(app.topicStats);
});
app.post("/shutdown", () => {
  setTimeout(() => void close(), 10);
  return new Response("closing");
});

const close = await serveHere(app);
