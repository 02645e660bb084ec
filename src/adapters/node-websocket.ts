import type { WebSocket } from "ws";
import type { SocketTransport } from "../mod.ts";

/** Wraps a `ws` socket as a Portico transport. */
export function nodeSocketTransport(ws: WebSocket): SocketTransport {
  return {
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    get readyState() {
      return ws.readyState;
    },
  };
}
