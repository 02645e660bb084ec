// Deno through `portico/deno`'s serve helper.
import { serve } from "../../../src/adapters/deno.ts";
import { app } from "../../conformance/fixture-app.ts";

const server = await serve(app, { port: 0, hostname: "127.0.0.1" });
console.log(`READY ${server.url.origin}`);
