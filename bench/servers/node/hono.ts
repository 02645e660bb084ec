import { serve } from "@hono/node-server";
import { buildHono } from "../hono-app.ts";

const app = buildHono({ requestId: process.env.REQUEST_ID === "1" });
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" }, (info) =>
  console.log(`READY http://127.0.0.1:${info.port}`),
);
