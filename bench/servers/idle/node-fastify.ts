// Fastify with @fastify/websocket (ws underneath).
import websocket from "@fastify/websocket";
import Fastify from "fastify";
import type { WebSocket } from "ws";

const topic = new Set<WebSocket>();
const app = Fastify();
await app.register(websocket);
app.register(async (scope) => {
  scope.get("/bench", { websocket: true }, (socket) => {
    topic.add(socket);
    socket.on("close", () => topic.delete(socket));
    socket.send("ready");
  });
});
const address = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`READY ${address}`);
