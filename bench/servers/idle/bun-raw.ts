// Raw Bun.serve with its native pub/sub, the Bun anchor of bench/idle-sockets.ts.
declare const Bun: {
  serve(options: object): { url: URL; upgrade(request: Request): boolean };
};
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request: Request, srv: { upgrade(request: Request): boolean }) {
    return srv.upgrade(request) ? undefined : new Response("upgrade required", { status: 426 });
  },
  websocket: {
    open(ws: { subscribe(topic: string): void; send(text: string): void }) {
      ws.subscribe("t0");
      ws.send("ready");
    },
    message() {},
  },
});
console.log(`READY ${server.url.origin}`);
