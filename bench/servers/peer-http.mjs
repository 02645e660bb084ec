// The HTTP side both peer instances of bench/pubsub-peers.ts share: POST /publish/<room>?n=N&size=S
// publishes N stamped messages through `publish(room, text)`; GET /memory reports the heap after a
// collection (run with --expose-gc). Anything else goes to `other` (Socket.IO answers its own), or 404.
import { createServer } from "node:http";

const stamp = () => (performance.timeOrigin + performance.now()).toFixed(3);

export function peerServer(publish, other) {
  return createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname.startsWith("/publish/")) {
      const room = url.pathname.slice("/publish/".length);
      const n = Number(url.searchParams.get("n") ?? 1);
      const pad = "x".repeat(Number(url.searchParams.get("size") ?? 0));
      for (let i = 0; i < n; i++) publish(room, `${stamp()} ${i} ${pad}`);
      res.end("ok");
    } else if (url.pathname === "/memory") {
      globalThis.gc?.();
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(process.memoryUsage()));
    } else if (!other?.(req)) {
      res.statusCode = 404;
      res.end();
    }
  });
}
