import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { validator } from "hono/validator";
import * as v from "valibot";
import { buildHono } from "../hono-app.mjs";
import { CreateUser, IdParams, SearchQuery } from "../shared-valibot.mjs";

const app = buildHono(Hono, validator, v, { IdParams, SearchQuery, CreateUser });
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" }, (info) =>
  console.log(`READY http://127.0.0.1:${info.port}`),
);
