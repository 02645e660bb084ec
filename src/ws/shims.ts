import type { SocketController, SocketTransport } from "./socket-controller.ts";
import { forwardEvents, type StandardWebSocket, standardTransport } from "./whatwg-transport.ts";

/** Opens the session once the runtime reports the socket open; returns the controller to feed. */
export type OpenSocket = (transport: SocketTransport) => SocketController;

/**
 * A runtime's way to accept an upgrade. Returns the `Response` to send (Deno, workerd), or
 * `undefined` when the runtime answers the handshake itself (Bun, the Node adapter).
 */
export type UpgradeShim = (request: Request, open: OpenSocket) => Response | undefined;

const shimKey = Symbol.for("portico.upgrade-shim");

/** Attaches a server adapter's upgrade shim to a request (the Node adapter does, for `ws`). */
export function attachUpgradeShim(request: Request, shim: UpgradeShim): void {
  (request as { [shimKey]?: UpgradeShim })[shimKey] = shim;
}

/** The shim for this request on this runtime, or `undefined` where websockets cannot be accepted. */
export function upgradeShimFor(request: Request, env: unknown): UpgradeShim | undefined {
  const attached = (request as { [shimKey]?: UpgradeShim })[shimKey];
  if (attached) return attached;
  const runtime = globalThis as {
    Bun?: unknown;
    Deno?: { upgradeWebSocket?: (request: Request) => { socket: StandardWebSocket; response: Response } };
    WebSocketPair?: new () => Record<0 | 1, StandardWebSocket & { accept(): void }>;
  };
  if (runtime.Bun !== undefined && isBunServer(env)) return bunShim(env);
  const denoUpgrade = runtime.Deno?.upgradeWebSocket;
  if (denoUpgrade) return denoShim(denoUpgrade);
  if (runtime.WebSocketPair) return workersShim(runtime.WebSocketPair);
  return undefined;
}

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
}

/** What each Bun connection carries from `server.upgrade` to the `websocket` handlers. */
interface BunSocketData {
  open: OpenSocket;
  controller?: SocketController;
}

/** Bun's server-wide websocket handlers, as `app.websocket` holds them for `Bun.serve(app)`. */
export interface BunWebSocketHandlers {
  /** A connection opened. */
  open(ws: BunWebSocket): void;
  /** A message arrived (text, or bytes for a binary frame). */
  message(ws: BunWebSocket, message: string | Uint8Array): void;
  /** The connection closed. */
  close(ws: BunWebSocket, code: number, reason: string): void;
}

interface BunServer {
  upgrade(request: Request, options: { data: BunSocketData }): boolean;
}

function isBunServer(env: unknown): env is BunServer {
  return typeof (env as { upgrade?: unknown } | undefined)?.upgrade === "function";
}

function bunShim(server: BunServer): UpgradeShim {
  return (request, open) => {
    if (!server.upgrade(request, { data: { open } })) throw new Error("Bun refused the websocket upgrade");
    return undefined;
  };
}

/** Bun's server-wide websocket handlers; each connection finds its session in `ws.data`. */
export const bunWebSocketHandlers: BunWebSocketHandlers = {
  open(ws) {
    ws.data.controller = ws.data.open({
      send: (data) => ws.send(data),
      close: (code, reason) => ws.close(code, reason),
      get readyState() {
        return ws.readyState;
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

function denoShim(
  upgradeWebSocket: (request: Request) => { socket: StandardWebSocket; response: Response },
): UpgradeShim {
  return (request, open) => {
    const { socket, response } = upgradeWebSocket(request);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => forwardEvents(socket, open(standardTransport(socket)), false));
    return response;
  };
}

function workersShim(Pair: new () => Record<0 | 1, StandardWebSocket & { accept(): void }>): UpgradeShim {
  return (_request, open) => {
    const pair = new Pair();
    const client = pair[0];
    const server = pair[1];
    server.accept();
    server.binaryType = "arraybuffer";
    forwardEvents(server, open(standardTransport(server)), true);
    return new Response(null, { status: 101, webSocket: client } as ResponseInit);
  };
}
