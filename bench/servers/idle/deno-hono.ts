// Hono on Deno: hono/deno's websocket helper over Deno.upgradeWebSocket.
import { Hono } from "hono";
import { upgradeWebSocket } from "hono/deno";
import type { WSContext } from "hono/ws";

declare const Deno: {
  serve(
    options: object,
    handler: (request: Request) => Response | Promise<Response>,
  ): { addr: { port: number } };
};

const topic = new Set<WSContext>();
const app = new Hono();
app.get(
  "/bench",
  upgradeWebSocket(() => ({
    onOpen: (_event, ws) => {
      topic.add(ws);
      ws.send("ready");
    },
    onClose: (_event, ws) => void topic.delete(ws),
  })),
);
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
console.log(`READY http://127.0.0.1:${server.addr.port}`);
