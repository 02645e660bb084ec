// Cloudflare Workers: point wrangler's `main` at this file (see the README's Workers section).
import { app } from "./app.ts";

export default app;
