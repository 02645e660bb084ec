import { Hono } from "hono";
import { validator } from "hono/validator";
import * as v from "valibot";
import { buildHono } from "../hono-app.mjs";
import { CreateUser, IdParams, SearchQuery } from "../shared-valibot.mjs";

declare const Deno: {
  serve(options: object, handler: (req: Request) => Response | Promise<Response>): unknown;
  env: { get(name: string): string | undefined };
};

const app = buildHono(Hono, validator, v, { IdParams, SearchQuery, CreateUser });
Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 3000),
    hostname: "127.0.0.1",
    onListen: ({ port }: { port: number }) => console.log(`READY http://127.0.0.1:${port}`),
  },
  app.fetch,
);
