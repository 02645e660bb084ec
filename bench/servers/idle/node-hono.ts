// Hono on Node: @hono/node-server's websocket support (ws underneath).
import { serve, upgradeWebSocket } from "@hono/node-server";
import { WebSocketServer } from "ws";
import { idleApp } from "./hono-app.ts";

const app = idleApp(upgradeWebSocket);
serve(
  {
    fetch: app.fetch,
    port: 0,
    hostname: "127.0.0.1",
    websocket: { server: new WebSocketServer({ noServer: true }) },
  },
  (info) => console.log(`READY http://127.0.0.1:${info.port}`),
);
