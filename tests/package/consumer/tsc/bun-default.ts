// The shape Bun documents, checked with `declaration: true` (it once failed with TS4082).
import { app } from "./app.js";

export default { port: 3000, fetch: app.fetch, websocket: app.websocket };
