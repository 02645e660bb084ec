import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import * as wsModule from "ws";
import { type WebSocket, WebSocketServer } from "ws";
import { settled } from "../context/later.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import type { Broadcast, OpenSocket, SocketTransport, UpgradeShim } from "../runtime/runtime.ts";
import { type FetchApp, nodeAnswer } from "./node-handler.ts";
import { releaseUpgraded, toRequest } from "./node-request.ts";
import { toNodeHeaders } from "./node-response.ts";

const chosenProtocol = Symbol("portico.protocol");

/** Websocket upgrades on a Node server: the request goes through the app, which accepts it through `ws`. */
export class NodeUpgrades {
  // One `ws` server per message limit (an app has one; several apps may share a server).
  readonly #servers = new Map<number, WebSocketServer>();

  /** Handles a server's `upgrade` event. */
  handle(app: FetchApp, incoming: IncomingMessage, socket: Duplex, head: Buffer, listening: string): void {
    const shim: UpgradeShim = (_request, open, options) => {
      (incoming as { [chosenProtocol]?: string | undefined })[chosenProtocol] = options.protocol;
      this.#server(options.maxMessageSize).handleUpgrade(incoming, socket, head, (ws) => {
        releaseUpgraded(request);
        accept(ws, open);
      });
      return undefined;
    };
    const request = toRequest(incoming, undefined, listening, shim);
    Promise.resolve(settled(nodeAnswer(app)(request)))
      .then((parts) => (parts.status === 101 ? undefined : writeRefusal(socket, parts)))
      .catch(() => refuse(socket, 500));
  }

  /** Sockets still open. */
  clients(): WebSocket[] {
    return [...this.#servers.values()].flatMap((server) => [...server.clients]);
  }

  /** Closes the `ws` servers. */
  close(): void {
    for (const server of this.#servers.values()) server.close();
  }

  #server(maxPayload: number): WebSocketServer {
    let server = this.#servers.get(maxPayload);
    if (server === undefined) {
      server = new WebSocketServer({
        noServer: true,
        maxPayload,
        clientTracking: true,
        // Only the app chooses a subprotocol (never the first the client lists).
        handleProtocols: (_offered, request) =>
          (request as { [chosenProtocol]?: string })[chosenProtocol] ?? false,
      });
      this.#servers.set(maxPayload, server);
    }
    return server;
  }
}

// The open socket's handlers, made here rather than inside `handle`: a closure keeps its outer scopes, and
// those hold the upgrade's message, head and socket, for as long as the socket lives.
function accept(ws: WebSocket, open: OpenSocket): void {
  const controller = open(transport(ws));
  ws.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    const bytes = Array.isArray(data)
      ? Buffer.concat(data)
      : data instanceof ArrayBuffer
        ? Buffer.from(data)
        : data;
    controller.receive(
      isBinary ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes.toString("utf8"),
    );
  });
  ws.on("close", (code: number, reason: Buffer) => controller.closed(code, reason.toString("utf8")));
  ws.on("error", () => ws.terminate());
}

// After a close for a client's fault (1008: flooding or not reading; 1009: too big), nothing more is
// read from it, and the connection ends shortly after the close frame instead of waiting up to `ws`'s
// 30 s for the client's own close frame.
const FAULT_CODES = new Set([1008, 1009]);
const FAULT_GRACE = 1000;

// A message to many sockets is framed once and that frame written to each (`ws`'s own advice for
// broadcasting, websockets/ws#617; Socket.IO does the same): possible while no extension (compression)
// rewrites frames, as Portico's server negotiates none.
interface FrameSender {
  sendFrame(frame: Buffer[]): void;
}
type Frame = (data: Buffer, options: Record<string, boolean | number>) => Buffer[];
const frame = (wsModule as unknown as { Sender?: { frame?: Frame } }).Sender?.frame;
const frameOf = (data: string | Uint8Array): Buffer[] =>
  frame!(
    typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    {
      fin: true,
      rsv1: false,
      opcode: typeof data === "string" ? 1 : 2,
      mask: false,
      readOnly: false,
    },
  );

function transport(ws: WebSocket): SocketTransport {
  const sender = (ws as unknown as { _sender?: Partial<FrameSender> })._sender;
  const net = (ws as unknown as { _socket?: Duplex })._socket;
  let corked = false;
  const uncork = (): void => {
    corked = false;
    net?.uncork();
  };
  const framed =
    frame !== undefined && typeof sender?.sendFrame === "function" && ws.extensions === ""
      ? (sender as FrameSender)
      : undefined;
  return {
    send: (data) => ws.send(data),
    ...(framed === undefined
      ? {}
      : {
          sendBroadcast(broadcast: Broadcast) {
            broadcast.prepared ??= frameOf(broadcast.data);
            // A burst (a loop of publishes, or a batch read from the broker) leaves in one write per socket.
            if (!corked && net !== undefined) {
              corked = true;
              net.cork();
              process.nextTick(uncork);
            }
            framed.sendFrame(broadcast.prepared as Buffer[]);
          },
        }),
    close: (code, reason) => {
      ws.close(code, reason);
      if (!FAULT_CODES.has(code)) return;
      ws.pause();
      setTimeout(() => ws.terminate(), FAULT_GRACE).unref();
    },
    get readyState() {
      return ws.readyState;
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
  };
}

// The app answered an upgrade request with an ordinary response (401, 404, 426…): write it as HTTP/1.1.
async function writeRefusal(socket: Duplex, response: ResponseParts): Promise<void> {
  const body = new Uint8Array(await new Response(response.body as BodyInit | null).arrayBuffer());
  const headers = toNodeHeaders(response.headers);
  headers["content-length"] = String(body.byteLength);
  headers.connection = "close";
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) head += `${name}: ${v}\r\n`;
  }
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), body]));
}

/** Refuses an upgrade with a bare status (the server is closing, or the app failed). */
export function refuse(socket: Duplex, status: number): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}
