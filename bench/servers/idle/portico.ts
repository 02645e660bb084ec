// Portico on whichever runtime runs it (Node through its adapter and ws, Bun, Deno): each socket joins
// topic t0 (Bun's native pub/sub on Bun, the in-process hub elsewhere).
import { createApp } from "../../../src/mod.ts";
import { serveHere } from "../../../tests/runtimes/serve-here.ts";

const app = createApp();
app.ws("/bench", (socket) => {
  socket.subscribe("t0");
  socket.send("ready");
});
await serveHere(app);
