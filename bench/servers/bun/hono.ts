import { Hono } from "hono";
import { validator } from "hono/validator";
import * as v from "valibot";
import { buildHono } from "../hono-app.mjs";
import { CreateUser, IdParams, SearchQuery } from "../shared-valibot.mjs";

declare const Bun: { serve(options: object): { port: number } };

const app = buildHono(Hono, validator, v, { IdParams, SearchQuery, CreateUser });
const server = Bun.serve({ port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1", fetch: app.fetch });
console.log(`READY http://127.0.0.1:${server.port}`);
