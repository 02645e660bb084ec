// `deno run -A examples/realworld/deno.ts`: the API on Deno.
import { serve } from "portico/deno";
import { fromEnvironment } from "./start.ts";

declare const Deno: { env: { get(name: string): string | undefined } };

const { app } = await fromEnvironment((name) => Deno.env.get(name));
const server = await serve(app, { port: Number(Deno.env.get("PORT") ?? 3000) });
console.log(`RealWorld API listening on ${server.url}api`);
