// `bun run examples/chat/bun.ts`, then open the printed URL in two browser tabs.
import { serve } from "../../src/adapters/bun.ts";
import { app } from "./app.ts";

const server = serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`Portico chat example listening on ${server.url}`);
