// Node 22.18+ / 24: the user's own TypeScript, run with type stripping (`node node-server.ts`).
import { serve } from "portico/node";
import { app } from "./app.ts";

const server = await serve(app, { port: 0 });
console.log(`READY ${server.url.origin}`);
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
