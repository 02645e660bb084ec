// `bun run examples/api/bun.ts`
import { serve } from "portico/bun";
import { app } from "./app.ts";

const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`Portico API example listening on ${server.url}`);
