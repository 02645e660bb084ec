// workerd: serveStatic() through the Worker's static-assets binding (Workers have no file system).
import { createApp } from "../../../src/mod.ts";
import { type AssetsBinding, serveStatic } from "../../../src/static/serve-static.ts";

const app = createApp<{ ASSETS: AssetsBinding }>();
app.get(
  "/assets/*",
  serveStatic({ root: "public", assets: (ctx) => (ctx.env as { ASSETS: AssetsBinding }).ASSETS }),
);
app.get("/bare/*", serveStatic({ root: "public" }));
export default app;
