// A Socket.IO 4 instance with @socket.io/redis-adapter, for bench/pubsub-peers.ts: a client joins the
// room named in its handshake query; what it emits ("m") goes to the rest of its room; POST
// /publish/<room>?n=N&size=S emits N stamped messages to the room; GET /memory reports the heap after
// a collection (run with --expose-gc). Prints READY <url>.
import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import { Server } from "socket.io";
import { peerServer } from "./peer-http.mjs";

const pub = createClient({ url: process.env.REDIS_URL });
const sub = pub.duplicate();
await Promise.all([pub.connect(), sub.connect()]);
const http = peerServer(
  (room, text) => io.to(room).emit("m", text),
  (req) => req.url.startsWith("/socket.io"), // Socket.IO's own handler answers
);
const io = new Server(http, {
  adapter: createAdapter(pub, sub),
  transports: ["websocket"],
  serveClient: false,
});
io.on("connection", (socket) => {
  const room = String(socket.handshake.query.room);
  socket.join(room);
  socket.on("m", (text) => socket.to(room).emit("m", text));
});
http.listen(0, "127.0.0.1", () => console.log(`READY http://127.0.0.1:${http.address().port}`));
