// Hono on Deno: hono/deno's websocket helper over Deno.upgradeWebSocket.
import { upgradeWebSocket } from "hono/deno";
import { idleApp } from "./hono-app.ts";

declare const Deno: {
  serve(
    options: object,
    handler: (request: Request) => Response | Promise<Response>,
  ): { addr: { port: number } };
};

const app = idleApp(upgradeWebSocket);
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
console.log(`READY http://127.0.0.1:${server.addr.port}`);
