// A chat room per path, over a channel: typed params, a declared error, broadcasting through a topic
// per room, and the room's presence for who is there. A room's wall (`/wall/:room`) follows it read-only over server-sent events, from the same
// topic (`app.subscribe`). The entries give it a backplane when REDIS_URL is set (two-instance mode: the
// README): members and walls on any instance then share their rooms. On Workers a Durable Object hosts
// each room (workers.ts).

import { type App, type AppOptions, createApp, defineChannel, t } from "portico";
import { sse } from "portico/sse";
import * as v from "valibot";

const Room = v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,32}$/));

// The sockets that joined their room (a socket refused for a full room never did, and has no leave).
const joined = new WeakSet<object>();

/**
 * The chat's channel. Who is in a room is the topic's presence: every member on every instance, so the
 * capacity and the head count it announces are the room's, not this instance's.
 */
export function chatChannel(app: App) {
  return defineChannel({
    params: {
      path: { room: Room },
      query: {
        name: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
        capacity: v.optional(t.int32(), 50),
      },
    },
    errors: { RoomFull: { code: 4029, message: "This room is full" } },
    async onOpen(ch) {
      const topic = `room:${ch.params.path.room}`;
      if ((await app.presence(topic)).count >= ch.params.query.capacity) throw new ch.errors.RoomFull();
      await ch.subscribe(topic, { presence: { name: ch.params.query.name } });
      joined.add(ch.socket);
      const { count } = await app.presence(topic);
      ch.publish(topic, `* ${ch.params.query.name} joined (${count} here)`, { self: true });
    },
    onMessage(ch, message) {
      if (typeof message !== "string") return;
      ch.publish(`room:${ch.params.path.room}`, `${ch.params.query.name}: ${message}`, { self: true });
    },
    onClose(ch) {
      if (joined.has(ch.socket)) ch.publish(`room:${ch.params.path.room}`, `* ${ch.params.query.name} left`);
    },
  });
}

/** The chat app, with the options an entry gives it (a backplane). */
export function chatApp(options: AppOptions = {}): App {
  const app = createApp(options);
  app.ws("/chat/:room", chatChannel(app));
  // What the room says, as an event stream, for as long as the client follows it.
  app.get("/chat/:room/events", (ctx) => {
    const room = ctx.request.pathParams.room ?? "";
    if (!v.is(Room, room)) return new Response("No such room", { status: 404 });
    return sse(ctx, async (stream) => {
      const stop = app.subscribe(`room:${room}`, (message) => {
        if (typeof message === "string") void stream.send({ data: message });
      });
      await stream.comment("following");
      await new Promise((resolve) => stream.signal.addEventListener("abort", resolve));
      stop();
    });
  });
  app.get("/", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }));
  app.get(
    "/wall/:room",
    () => new Response(WALL, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return app;
}

/** The chat on one instance. */
export const app: App = chatApp();

const PAGE = `<!doctype html><meta charset="utf-8"><title>Portico chat</title>
<form id="f"><input id="m" autocomplete="off" placeholder="Say something"></form><pre id="log"></pre>
<script>
const name = prompt("Your name?") || "guest";
const ws = new WebSocket(location.origin.replace("http", "ws") + "/chat/lobby?name=" + encodeURIComponent(name));
ws.onmessage = (e) => { log.textContent += e.data + "\\n"; };
ws.onclose = (e) => { log.textContent += "closed: " + e.code + " " + e.reason + "\\n"; };
f.onsubmit = (e) => { e.preventDefault(); ws.send(m.value); m.value = ""; };
</script>`;

const WALL = `<!doctype html><meta charset="utf-8"><title>Portico chat wall</title><pre id="log"></pre>
<script>
window.seen = [];
const room = location.pathname.split("/").pop();
const events = new EventSource("/chat/" + room + "/events");
events.onmessage = (e) => { window.seen.push(e.data); log.textContent += e.data + "\\n"; };
</script>`;
