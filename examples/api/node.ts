// `npx tsx examples/api/node.ts`, then e.g. `curl -H 'accept: text/plain' localhost:3000/api/users/1`.
import { serve } from "portico/node";
import { app } from "./app.ts";

const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`Portico API example listening on ${server.url}`);
