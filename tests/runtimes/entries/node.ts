// Node (any version the suite runs): `serve(app, { port })` from portico/node.
import { serve } from "../../../src/adapters/node.ts";
import { app } from "../../conformance/fixture-app.ts";

const server = await serve(app, { port: 0, hostname: "127.0.0.1" });
console.log(`READY ${server.url.origin}`);
process.on("SIGTERM", () => {
  server.close().then(() => process.exit(0));
});
