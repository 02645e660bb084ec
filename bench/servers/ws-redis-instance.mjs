// The hand-written reference for bench/pubsub-peers.ts: `ws` and Redis pub/sub, nothing else. A client
// joins /room/<room>; what it sends goes to the rest of its room, here at once and on the other instances
// through a Redis channel per room (this instance's own messages skipped when they come back). POST
// /publish/<room>?n=N&size=S publishes N stamped messages; GET /memory as the others. Prints READY <url>.
import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { WebSocketServer } from "ws";
import { peerServer } from "./peer-http.mjs";

const id = randomUUID();
const pub = createClient({ url: process.env.REDIS_URL });
const sub = pub.duplicate();
await Promise.all([pub.connect(), sub.connect()]);
const rooms = new Map();

const local = (room, text, except) => {
  for (const ws of rooms.get(room) ?? []) if (ws !== except) ws.send(text);
};
const publish = (room, text, except) => {
  void pub.publish(`room:${room}`, `${id}|${text}`);
  local(room, text, except);
};
const join = async (room, ws) => {
  let members = rooms.get(room);
  if (!members) {
    members = new Set();
    rooms.set(room, members);
    await sub.subscribe(`room:${room}`, (message) => {
      const bar = message.indexOf("|");
      if (message.slice(0, bar) !== id) local(room, message.slice(bar + 1));
    });
  }
  members.add(ws);
};

const http = peerServer(publish);
const wss = new WebSocketServer({ server: http });
wss.on("connection", async (ws, req) => {
  const room = new URL(req.url, "http://x").pathname.slice("/room/".length);
  await join(room, ws);
  ws.on("message", (data) => publish(room, data.toString(), ws));
  ws.on("close", () => rooms.get(room)?.delete(ws));
  ws.send("ready");
});
http.listen(0, "127.0.0.1", () => console.log(`READY http://127.0.0.1:${http.address().port}`));
