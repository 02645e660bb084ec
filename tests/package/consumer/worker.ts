// Cloudflare Workers: `export default app`, bundled as Wrangler bundles it.
import { app } from "./app.ts";

export default app;
