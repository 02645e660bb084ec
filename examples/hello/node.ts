// Node: `npm start` (or `npx tsx examples/hello/node.ts`).
import { serve } from "portico/node";
import { app } from "./app.ts";

const server = await serve(app, {
  port: Number(process.env.PORT ?? 3000),
  hostname: process.env.HOST ?? "127.0.0.1",
});
console.log(`Portico hello example listening on ${server.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close().then(() => process.exit(0));
  });
}
