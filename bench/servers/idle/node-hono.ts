// Hono on Node: @hono/node-server's websocket support (ws underneath).
import { serve, upgradeWebSocket, type WebSocketLike } from "@hono/node-server";
import { Hono } from "hono";
import type { WSContext } from "hono/ws";
import { WebSocketServer } from "ws";

const topic = new Set<WSContext<WebSocketLike>>();
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
serve(
  {
    fetch: app.fetch,
    port: 0,
    hostname: "127.0.0.1",
    websocket: { server: new WebSocketServer({ noServer: true }) },
  },
  (info) => console.log(`READY http://127.0.0.1:${info.port}`),
);
