// `deno run --allow-net --allow-env --allow-read examples/api/deno.ts`
import { serve } from "portico/deno";
import { app } from "./app.ts";

declare const Deno: { env: { get(name: string): string | undefined } };

const server = await serve(app, { port: Number(Deno.env.get("PORT") ?? 3000) });
console.log(`Portico API example listening on ${server.url}`);
