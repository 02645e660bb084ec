// Bun through `portico/bun`'s serve helper (fetch and websocket handed to Bun.serve).
import { serve } from "../../../src/adapters/bun.ts";
import { app } from "../../conformance/fixture-app.ts";

const server = await serve(app, { port: 0, hostname: "127.0.0.1" });
console.log(`READY ${server.url.origin}`);
