import { serve } from "../../../src/adapters/bun.ts";
import { app } from "../portico-app.ts";

const server = await serve(app, { port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" });
console.log(`READY ${server.url.origin}`);
