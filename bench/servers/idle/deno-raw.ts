// Raw Deno.serve + Deno.upgradeWebSocket: the Deno anchor.
declare const Deno: {
  serve(options: object, handler: (request: Request) => Response): { addr: { port: number } };
  upgradeWebSocket(request: Request): { socket: WebSocket; response: Response };
};

const topic = new Set<WebSocket>();
const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
  if (request.headers.get("upgrade") !== "websocket")
    return new Response("upgrade required", { status: 426 });
  const { socket, response } = Deno.upgradeWebSocket(request);
  socket.onopen = () => {
    topic.add(socket);
    socket.send("ready");
  };
  socket.onclose = () => topic.delete(socket);
  return response;
});
console.log(`READY http://127.0.0.1:${server.addr.port}`);
