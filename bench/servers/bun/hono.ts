import { buildHono } from "../hono-app.ts";

declare const Bun: { serve(options: object): { port: number } };

const app = buildHono({ requestId: process.env.REQUEST_ID === "1" });
const server = Bun.serve({ port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1", fetch: app.fetch });
console.log(`READY http://127.0.0.1:${server.port}`);
