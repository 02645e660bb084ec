// A chat room per path, over a channel: typed params, a declared error, and broadcasting.
import * as v from "valibot";
import { createApp, defineChannel, type Socket, t } from "../../src/mod.ts";

const rooms = new Map<string, Set<Socket>>();

export const Chat = defineChannel({
  params: {
    path: { room: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,32}$/)) },
    query: { name: v.pipe(v.string(), v.minLength(1), v.maxLength(20)), capacity: v.optional(t.int32(), 50) },
  },
  errors: { RoomFull: { code: 4029, message: "This room is full" } },
  onOpen(ch) {
    const members = rooms.get(ch.params.path.room) ?? new Set<Socket>();
    if (members.size >= ch.params.query.capacity) throw new ch.errors.RoomFull();
    members.add(ch.socket);
    rooms.set(ch.params.path.room, members);
    broadcast(members, `* ${ch.params.query.name} joined (${members.size} here)`);
  },
  onMessage(ch, message) {
    if (typeof message !== "string") return;
    broadcast(rooms.get(ch.params.path.room), `${ch.params.query.name}: ${message}`);
  },
  onClose(ch) {
    const members = rooms.get(ch.params.path.room);
    if (!members?.delete(ch.socket)) return;
    if (members.size === 0) rooms.delete(ch.params.path.room);
    else broadcast(members, `* ${ch.params.query.name} left`);
  },
});

export const app = createApp();
app.ws("/chat/:room", Chat);
app.get("/", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }));

function broadcast(members: Set<Socket> | undefined, text: string): void {
  for (const socket of members ?? []) socket.send(text);
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>Portico chat</title>
<form id="f"><input id="m" autocomplete="off" placeholder="Say something"></form><pre id="log"></pre>
<script>
const name = prompt("Your name?") || "guest";
const ws = new WebSocket(location.origin.replace("http", "ws") + "/chat/lobby?name=" + encodeURIComponent(name));
ws.onmessage = (e) => { log.textContent += e.data + "\\n"; };
ws.onclose = (e) => { log.textContent += "closed: " + e.code + " " + e.reason + "\\n"; };
f.onsubmit = (e) => { e.preventDefault(); ws.send(m.value); m.value = ""; };
</script>`;
