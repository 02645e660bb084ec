// Hono on Bun: hono/bun's websocket helper over Bun.serve (native pub/sub).
import { Hono } from "hono";
import { upgradeWebSocket, websocket } from "hono/bun";

declare const Bun: { serve(options: object): { url: URL } };

const app = new Hono();
app.get(
  "/bench",
  upgradeWebSocket(() => ({
    onOpen: (_event, ws) => {
      (ws.raw as { subscribe(topic: string): void }).subscribe("t0");
      ws.send("ready");
    },
  })),
);
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, websocket });
console.log(`READY ${server.url.origin}`);
