// Bun: `bun bun-server.ts`.
import { serve } from "portico/bun";
import { app } from "./app.ts";

const server = await serve(app, { port: 0 });
console.log(`READY ${server.url.origin}`);
