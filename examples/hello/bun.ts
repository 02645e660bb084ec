// Bun: `bun run examples/hello/bun.ts` — Bun serves the default export (fetch + websocket).
import { app } from "./app.ts";

export default app;
