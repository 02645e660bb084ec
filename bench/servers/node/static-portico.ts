// Static files with portico/static (bundled by bench/static.ts, as deployed).
import { serve } from "../../../src/adapters/node.ts";
import { createApp } from "../../../src/mod.ts";
import { serveStatic } from "../../../src/static/serve-static.ts";

const app = createApp();
app.get(
  "/static/*",
  serveStatic({ root: process.env.STATIC_ROOT ?? ".", followSymlinks: process.env.FOLLOW_SYMLINKS === "1" }),
);
const server = await serve(app, { port: Number(process.env.PORT ?? 3000), signals: false });
console.log(`READY ${server.url.origin}`);
