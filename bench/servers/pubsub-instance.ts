// A Portico instance for bench/pubsub.ts, on whichever runtime runs it: `/bench?topics=N` subscribes its
// socket to t0…t(N-1); a message "topic text" is published to that topic. Backplane from REDIS_URL or
// NATS_URL (none: in-process).
import { createApp } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";

declare const Bun: unknown;
declare const Deno: { env: { get(name: string): string | undefined } } | undefined;
const env = (name: string): string | undefined =>
  typeof Deno !== "undefined"
    ? Deno.env.get(name)
    : (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];

const redis = env("REDIS_URL");
const nats = env("NATS_URL");
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
