// Raw node:http + ws: the Node anchor.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

const topic = new Set<WebSocket>();
const wss = new WebSocketServer({ noServer: true });
const server = createServer((_request, response) => response.writeHead(426).end("upgrade required"));
server.on("upgrade", (request, socket, head) => {
  wss.handleUpgrade(request, socket, head, (ws) => {
    topic.add(ws);
    ws.on("close", () => topic.delete(ws));
    ws.send("ready");
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
