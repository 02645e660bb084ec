// Static files with @hono/node-server's serveStatic (its root is relative to the working directory).
import { relative } from "node:path";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";

const app = new Hono();
app.use(
  "/static/*",
  serveStatic({
    root: relative(process.cwd(), process.env.STATIC_ROOT ?? "."),
    rewriteRequestPath: (path) => path.replace(/^\/static/, ""),
  }),
);
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" }, (info) =>
  console.log(`READY http://127.0.0.1:${info.port}`),
);
