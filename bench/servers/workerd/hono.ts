import { buildHono } from "../hono-app.ts";

export default buildHono();
