import { buildHono } from "../hono-app.ts";

// Hono with its requestId middleware: every request gets an id, as Portico gives one.
export default buildHono({ requestId: true });
