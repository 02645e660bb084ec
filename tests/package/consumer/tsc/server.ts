// A `tsc --init` project: compiled by tsc, then run with node.
import { serve } from "portico/node";
import { app } from "./app.js";

const server = await serve(app, { port: 0 });
console.log(`READY ${server.url.origin}`);
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
