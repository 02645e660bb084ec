// `PORT=3000 npm run realworld`: the API on Node, on PGlite in memory unless DATABASE_URL or DATA_DIR says.
import { serve } from "portico/node";
import { fromEnvironment } from "./start.ts";

const { app } = await fromEnvironment((name) => process.env[name]);
const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`RealWorld API listening on ${server.url}api`);
