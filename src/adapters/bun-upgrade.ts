// Bun's websocket shim: `server.upgrade` (the server is `fetch`'s second argument) and the server-wide
// handlers an app exposes as `app.websocket`, which find each connection's session in `ws.data`.
import type { OpenSocket, UpgradeShim } from "../ws/shims.ts";
import type { SocketController } from "../ws/socket-controller.ts";

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
interface BunSocketData {
  open: OpenSocket;
  controller?: SocketController;
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
}

/** The handlers for an app whose messages may be up to `maxPayloadLength` bytes. */
export function bunWebSocketHandlers(maxPayloadLength: number): BunWebSocketHandlers {
  return {
    maxPayloadLength,
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

interface BunServer {
  upgrade(request: Request, options: { data: BunSocketData; headers?: Record<string, string> }): boolean;
  publish?(topic: string, data: string | Uint8Array): unknown;
}

/** On Bun, the server that `fetch` received upgrades the request. */
export function bunUpgrade(request: Request, env: unknown): UpgradeShim | undefined {
  if ((globalThis as { Bun?: unknown }).Bun === undefined) return undefined;
  const server = env as Partial<BunServer> | undefined;
  if (typeof server?.upgrade !== "function") return undefined;
  return (_request, open, options) => {
    // Without the header, Bun answers with the first subprotocol the client offered: only the app chooses.
    const headers = { "sec-websocket-protocol": options.protocol ?? "" };
    const bun = server as BunServer;
    const data: BunSocketData = { open };
    if (typeof bun.publish === "function") data.server = bun as Required<BunServer>;
    const accepted = bun.upgrade(request, { data, headers });
    if (!accepted) throw new Error("Bun refused the websocket upgrade");
    return undefined;
  };
}
