/**
 * Serves a Portico app with Node's `http` module, websockets included (through `ws`).
 *
 * @example
 * import { serve } from "portico/node";
 * const server = await serve(app, { port: 3000 });
 * console.log(`Listening on ${server.url}`);
 *
 * @module
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { attachUpgradeShim, type UpgradeShim } from "../ws/shims.ts";
import type { SocketTransport } from "../ws/socket-controller.ts";
import { NodeRequest } from "./node-request.ts";
import { toNodeHeaders, writeResponse } from "./node-response.ts";
import { requestUrl } from "./node-url.ts";

/** Anything with a Fetch-API `fetch` — a Portico app. */
export interface FetchApp {
  /** Answers a request. */
  fetch(request: Request, env?: undefined, executionContext?: undefined): Promise<Response> | Response;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** The port; `0` picks a free one (see `handle.url`). Default `3000`. */
  readonly port?: number;
  /** The interface to listen on. Default `127.0.0.1`; use `0.0.0.0` (or `::`) to accept remote clients. */
  readonly hostname?: string;
  /** How long `close()` waits for requests in flight before cutting connections, in ms. Default 10 000. */
  readonly gracePeriod?: number;
  /** Node's `headersTimeout` in ms (must be non-zero). Default 60 000. */
  readonly headersTimeout?: number;
  /** Node's `requestTimeout` in ms (must be non-zero). Default 300 000. */
  readonly requestTimeout?: number;
  /** Node's `keepAliveTimeout` in ms. Default 5 000. */
  readonly keepAliveTimeout?: number;
  /** Largest websocket message `ws` buffers, in bytes. Default 1 MiB (the app's own limit applies too). */
  readonly maxWebSocketMessage?: number;
}

/** A running server. */
export interface ServerHandle {
  /** Where the server listens, e.g. `http://127.0.0.1:3000/`. */
  readonly url: URL;
  /** The port it listens on. */
  readonly port: number;
  /** The Node server, for what this module does not cover. */
  readonly server: Server;
  /** Stops accepting connections, lets requests in flight finish (up to the grace period), then resolves. */
  close(): Promise<void>;
}

/**
 * Starts a Node HTTP server for an app; resolves once it listens.
 *
 * @example
 * const server = await serve(app, { port: 0 });
 * await fetch(new URL("/users/42", server.url));
 * await server.close();
 */
export async function serve(app: FetchApp, options: ServeOptions = {}): Promise<ServerHandle> {
  const hostname = options.hostname ?? "127.0.0.1";
  const server = createServer({
    headersTimeout: positive("headersTimeout", options.headersTimeout ?? 60_000),
    requestTimeout: positive("requestTimeout", options.requestTimeout ?? 300_000),
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxWebSocketMessage ?? 1024 * 1024,
    clientTracking: true,
  });
  let fallbackHost = hostname;
  let closing = false;

  server.on("request", (incoming: IncomingMessage, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    const url = requestUrl(incoming, fallbackHost);
    if (url === undefined) return badRequest(res);
    handle(app, new NodeRequest(incoming, url, res) as unknown as Request, res);
  });

  server.on("upgrade", (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = requestUrl(incoming, fallbackHost);
    if (url === undefined || closing) return rejectUpgrade(socket, closing ? 503 : 400);
    const request = new NodeRequest(incoming, url, undefined);
    const shim: UpgradeShim = (_request, open) => {
      wss.handleUpgrade(incoming, socket, head, (ws) => {
        const controller = open(nodeSocketTransport(ws));
        ws.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
          const bytes = Array.isArray(data)
            ? Buffer.concat(data)
            : data instanceof ArrayBuffer
              ? Buffer.from(data)
              : data;
          controller.receive(
            isBinary
              ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
              : bytes.toString("utf8"),
          );
        });
        ws.on("close", (code: number, reason: Buffer) => controller.closed(code, reason.toString("utf8")));
        ws.on("error", () => ws.terminate());
      });
      return undefined;
    };
    attachUpgradeShim(request as unknown as Request, shim);
    Promise.resolve(app.fetch(request as unknown as Request))
      .then((response) => (response === undefined ? undefined : writeRawResponse(socket, response)))
      .catch(() => rejectUpgrade(socket, 500));
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3000, hostname, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
      fallbackHost = `${host}:${address.port}`;
      const urlHost = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : host;
      resolve({
        url: new URL(`http://${urlHost}:${address.port}/`),
        port: address.port,
        server,
        close: () => {
          closing = true;
          return shutdown(server, wss, options.gracePeriod ?? 10_000);
        },
      });
    });
  });
}

function handle(app: FetchApp, request: Request, res: ServerResponse): void {
  let result: Promise<Response> | Response;
  try {
    result = app.fetch(request);
  } catch {
    internalError(res);
    return;
  }
  if (!(result instanceof Promise)) {
    writeResponse(result, res);
    return;
  }
  result.then(
    (response) => writeResponse(response, res),
    () => internalError(res),
  );
}

function badRequest(res: ServerResponse): void {
  res.writeHead(400, {
    "content-type": "text/plain; charset=utf-8",
    "x-request-id": crypto.randomUUID(),
    connection: "close",
  });
  res.end("400 Bad Request — invalid Host header or request target");
}

function internalError(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { "content-type": "text/plain; charset=utf-8", "x-request-id": crypto.randomUUID() });
  res.end("500 Internal Server Error");
}

// The app answered an upgrade request with an ordinary response (401, 404, 426…): write it as HTTP/1.1.
async function writeRawResponse(socket: Duplex, response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = toNodeHeaders(response.headers);
  headers["content-length"] = String(body.byteLength);
  headers.connection = "close";
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) head += `${name}: ${v}\r\n`;
  }
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, "latin1"), body]));
}

function rejectUpgrade(socket: Duplex, status: number): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

function shutdown(server: Server, wss: WebSocketServer, gracePeriod: number): Promise<void> {
  for (const ws of wss.clients) ws.close(1001, "Server shutting down");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      for (const ws of wss.clients) ws.terminate();
    }, gracePeriod);
    timer.unref();
    server.close((error) => {
      clearTimeout(timer);
      wss.close();
      if (error && (error as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`${name} must stay above 0 (0 turns Node's protection off)`);
  return value;
}

function nodeSocketTransport(ws: WebSocket): SocketTransport {
  return {
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    get readyState() {
      return ws.readyState;
    },
  };
}
