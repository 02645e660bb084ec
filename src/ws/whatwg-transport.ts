import type { SocketSink, SocketTransport } from "../runtime/runtime.ts";

/** The part of a WHATWG `WebSocket` (Deno, workerd) the shims use. */
export interface StandardWebSocket {
  binaryType: string;
  readonly readyState: number;
  /** Absent on workerd, whose sockets have no send buffer to report. */
  readonly bufferedAmount?: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "message" | "close" | "error", listener: (event: never) => void): void;
}

/** Wraps a WHATWG websocket (or a Durable Object's hibernatable one) as a transport. */
export function standardTransport(
  socket: Pick<StandardWebSocket, "send" | "close" | "readyState" | "bufferedAmount">,
): SocketTransport {
  return {
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    get readyState() {
      return socket.readyState;
    },
    get bufferedAmount() {
      return socket.bufferedAmount ?? 0;
    },
  };
}

/** Feeds a WHATWG websocket's messages and close into a controller. */
export function forwardEvents(socket: StandardWebSocket, controller: SocketSink, answerClose: boolean): void {
  socket.addEventListener("message", (event: { data: string | ArrayBuffer }) =>
    controller.receive(event.data),
  );
  socket.addEventListener("close", (event: { code: number; reason: string }) => {
    // workerd wants the server side to answer a client's close frame, or it reports the request as hung.
    if (answerClose && socket.readyState !== 3) {
      try {
        socket.close(event.code === 1005 || event.code === 1006 ? 1000 : event.code, event.reason);
      } catch {
        // Already closed: nothing to answer.
      }
    }
    controller.closed(event.code, event.reason);
  });
  socket.addEventListener("error", () => controller.closed(1006, ""));
}
