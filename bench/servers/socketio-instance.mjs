// A Socket.IO 4 instance with @socket.io/redis-adapter, for bench/pubsub-peers.ts: a client joins the
// room named in its handshake query; what it emits ("m") goes to the rest of its room; POST
// /publish/<room>?n=N&size=S emits N stamped messages to the room; GET /memory reports the heap after
// a collection (run with --expose-gc). Prints READY <url>.
import { createServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { createClient } from "redis";
import { Server } from "socket.io";

const pub = createClient({ url: process.env.REDIS_URL });
const sub = pub.duplicate();
await Promise.all([pub.connect(), sub.connect()]);
const stamp = () => (performance.timeOrigin + performance.now()).toFixed(3);

const http = createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  if (url.pathname.startsWith("/publish/")) {
    const room = url.pathname.slice("/publish/".length);
    const n = Number(url.searchParams.get("n") ?? 1);
    const pad = "x".repeat(Number(url.searchParams.get("size") ?? 0));
    for (let i = 0; i < n; i++) io.to(room).emit("m", `${stamp()} ${i} ${pad}`);
    res.end("ok");
  } else if (url.pathname === "/memory") {
    globalThis.gc?.();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(process.memoryUsage()));
  } else if (req.url.startsWith("/socket.io")) {
    // Socket.IO's own handler answers.
  } else {
    res.statusCode = 404;
    res.end();
  }
});
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
