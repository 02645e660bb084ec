// `deno run --allow-net --allow-env --allow-read examples/chat/deno.ts`, then open the printed URL in
// two browser tabs. With REDIS_URL set, several instances (on any runtime) share their rooms.
import { serve } from "portico/deno";
import { redisPubSub } from "portico/pubsub/redis";
import { chatApp } from "./app.ts";

declare const Deno: { env: { get(name: string): string | undefined } };

const url = Deno.env.get("REDIS_URL");
const app = chatApp({ pubsub: url ? redisPubSub({ url }) : undefined });
const server = await serve(app, { port: Number(Deno.env.get("PORT") ?? 3000) });
console.log(`Portico chat example listening on ${server.url}`);
