// `bun run examples/chat/bun.ts`, then open the printed URL in two browser tabs. With REDIS_URL set,
// several instances (on any runtime) share their rooms.
import { serve } from "portico/bun";
import { redisPubSub } from "portico/pubsub/redis";
import { chatApp } from "./app.ts";

const url = process.env.REDIS_URL;
const app = chatApp({ pubsub: url ? redisPubSub({ url }) : undefined });
const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`Portico chat example listening on ${server.url}`);
