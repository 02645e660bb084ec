// Elysia on Bun: its ws() route (Bun.serve's native pub/sub).
import { Elysia } from "elysia";

const app = new Elysia()
  .ws("/bench", {
    open(ws) {
      ws.subscribe("t0");
      ws.send("ready");
    },
  })
  .listen({ port: 0, hostname: "127.0.0.1" });
console.log(`READY http://127.0.0.1:${app.server!.port}`);
