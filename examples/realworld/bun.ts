// `bun run examples/realworld/bun.ts`: the API on Bun.
import { serve } from "portico/bun";
import { fromEnvironment } from "./start.ts";

const { app } = await fromEnvironment((name) => process.env[name]);
const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`RealWorld API listening on ${server.url}api`);
