// The server-wide websocket handlers an app exposes as `app.websocket` for `Bun.serve(app)` and
// `export default app` on Bun: each connection finds its session in `ws.data`, which the Bun runtime
// (`adapters/bun-runtime.ts`) sets when it upgrades. Plain code over Bun's socket shape: no Bun API.
import type { OpenSocket, SocketSink } from "../runtime/runtime.ts";

/** The part of Bun's `ServerWebSocket` that Portico's handlers use. */
export interface BunWebSocket {
  /** @ignore Portico's session for the connection, set by `server.upgrade`. */
  data: BunSocketData;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** Sends text or bytes. */
  send(data: string | Uint8Array): unknown;
  /** Closes the connection. */
  close(code?: number, reason?: string): void;
  /** Bytes queued and not yet sent. */
  getBufferedAmount(): number;
  /** Bun's topics: receive a topic's messages. */
  subscribe(topic: string): void;
  /** Bun's topics: stop receiving a topic. */
  unsubscribe(topic: string): void;
  /** Bun's topics: send to a topic's subscribers but this socket. */
  publish(topic: string, data: string | Uint8Array): unknown;
}

/** What each Bun connection carries from `server.upgrade` to the `websocket` handlers. */
export interface BunSocketData {
  open: OpenSocket;
  controller?: SocketSink;
  /** The server that upgraded it, for its `publish` (to all of a topic's sockets). */
  server?: { publish(topic: string, data: string | Uint8Array): unknown };
}

/** Bun's server-wide websocket handlers and options, as `app.websocket` holds them for `Bun.serve(app)`. */
export interface BunWebSocketHandlers {
  /** A connection opened. */
  open(ws: BunWebSocket): void;
  /** A message arrived (text, or bytes for a binary frame). */
  message(ws: BunWebSocket, message: string | Uint8Array): void;
  /** The connection closed. */
  close(ws: BunWebSocket, code: number, reason: string): void;
  /** Bun refuses larger messages itself (the app's `limits.wsMessageSize`). */
  readonly maxPayloadLength: number;
  /** Most bytes queued for a client that does not read (the app's `limits.wsBufferedAmount`). */
  readonly backpressureLimit: number;
  /**
   * `true`: a socket over `backpressureLimit` is closed, as on every other runtime, rather than skipped
   * in silence by Bun's own topic fan-out.
   */
  readonly closeOnBackpressureLimit: boolean;
}

/**
 * The handlers for an app whose messages may be up to `maxPayloadLength` bytes, and whose clients may
 * leave up to `backpressureLimit` bytes unread.
 */
export function bunWebSocketHandlers(
  maxPayloadLength: number,
  backpressureLimit: number,
): BunWebSocketHandlers {
  return {
    maxPayloadLength,
    backpressureLimit,
    closeOnBackpressureLimit: true,
    open(ws) {
      const server = ws.data.server;
      ws.data.controller = ws.data.open({
        // Topics fan out in Bun itself (its pub/sub), where it can reach the server.
        native:
          server === undefined
            ? undefined
            : {
                subscribe: (topic) => ws.subscribe(topic),
                unsubscribe: (topic) => ws.unsubscribe(topic),
                publish: (topic, message) => ws.publish(topic, message),
                publishAll: (topic, message) => server.publish(topic, message),
              },
        send: (data) => ws.send(data),
        close: (code, reason) => ws.close(code, reason),
        get readyState() {
          return ws.readyState;
        },
        get bufferedAmount() {
          return ws.getBufferedAmount();
        },
      });
    },
    message(ws, message) {
      ws.data.controller?.receive(
        typeof message === "string"
          ? message
          : new Uint8Array(message.buffer, message.byteOffset, message.byteLength),
      );
    },
    close(ws, code, reason) {
      ws.data.controller?.closed(code, reason);
    },
  };
}
