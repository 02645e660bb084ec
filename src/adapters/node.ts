/**
 * Serves a Portico app with Node's `http` module, websockets included (through `ws`), or mounts it in
 * an existing server with `toNodeHandler`.
 *
 * @example
 * import { serve } from "portico/node";
 * const server = await serve(app, { port: 3000 });
 * console.log(`Listening on ${server.url}`);
 *
 * @module portico/node
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";
import { startOf } from "../app/states.ts";
import { answerWith, type FetchApp, nodeAnswer } from "./node-handler.ts";
import { NodeUpgrades, refuse } from "./node-websocket.ts";
import { checkSignals, closeOnSignals, processSignals, reporter, type ShutdownSignal } from "./signals.ts";

export { type FetchApp, type NodeHandler, toNodeHandler } from "./node-handler.ts";
export type { ShutdownSignal } from "./signals.ts";

/** Options of {@link serve}. */
export interface ServeOptions {
  /** The port; `0` picks a free one (see `handle.url`). Default `3000`. */
  readonly port?: number;
  /** The interface to listen on. Default `127.0.0.1`; use `0.0.0.0` (or `::`) to accept remote clients. */
  readonly hostname?: string;
  /** How long `close()` waits for requests in flight before cutting connections, in ms. Default 10 000. */
  readonly gracePeriod?: number;
  /**
   * The signals that close the server gracefully (`close()`), then end the process: default
   * `["SIGTERM", "SIGINT"]`; `false` leaves signals to the app. A second signal ends it at once.
   */
  readonly signals?: readonly ShutdownSignal[] | false;
  /**
   * How long a client may take to send a request's headers, in ms (must be above 0). Default 15 000: a
   * slow-headers client (slowloris) holds a connection at most that long.
   */
  readonly headersTimeout?: number;
  /** How long a client may take to send a whole request, body included, in ms (above 0). Default 120 000. */
  readonly requestTimeout?: number;
  /** How long an idle keep-alive connection stays open, in ms. Default 5 000. */
  readonly keepAliveTimeout?: number;
}

/** A running server. */
export interface ServerHandle {
  /** Where the server listens, e.g. `http://127.0.0.1:3000/`. */
  readonly url: URL;
  /** The port it listens on. */
  readonly port: number;
  /** The Node server, for what this module does not cover. */
  readonly server: Server;
  /**
   * Stops accepting connections, closes websockets with 1001, lets requests in flight finish (up to the
   * grace period), then closes the app (`app.close()`: its backplane) and resolves.
   */
  close(): Promise<void>;
}

/**
 * Starts a Node HTTP server for an app: runs its `onStart()` hooks (a failure rejects, and nothing
 * listens), then resolves once it listens. On SIGTERM or SIGINT (see `signals`) it closes gracefully.
 *
 * @example
 * const server = await serve(app, { port: 0 });
 * await fetch(new URL("/users/42", server.url));
 * await server.close();
 */
export async function serve(app: FetchApp, options: ServeOptions = {}): Promise<ServerHandle> {
  const hostname = options.hostname ?? "127.0.0.1";
  checkSignals(options.signals);
  await startOf(app);
  const server = createServer({
    headersTimeout: positive("headersTimeout", options.headersTimeout ?? 15_000),
    requestTimeout: positive("requestTimeout", options.requestTimeout ?? 120_000),
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
    // Node checks both timeouts on this interval (30 s by default, which would stretch them).
    connectionsCheckingInterval: 1_000,
  });
  const upgrades = new NodeUpgrades();
  let listening = hostname;
  let closing = false;
  const answer = nodeAnswer(app);
  server.on("request", (incoming, res) => {
    if (closing) res.shouldKeepAlive = false;
    answerWith(answer, app, incoming, res, listening);
  });
  server.on("upgrade", (incoming, socket, head: Buffer) => {
    if (closing) refuse(socket, 503);
    else upgrades.handle(app, incoming, socket, head, listening);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3000, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  listening = `${host}:${address.port}`;
  const urlHost = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : host;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    forget();
    closing = true;
    closed ??= shutdown(server, upgrades, options.gracePeriod ?? 10_000).then(() => app.close?.());
    return closed;
  };
  const forget = closeOnSignals(processSignals(process), options.signals, close, reporter(app));
  return { url: new URL(`http://${urlHost}:${address.port}/`), port: address.port, server, close };
}

function shutdown(server: Server, upgrades: NodeUpgrades, gracePeriod: number): Promise<void> {
  for (const ws of upgrades.clients()) ws.close(1001, "Server shutting down");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      for (const ws of upgrades.clients()) ws.terminate();
    }, gracePeriod);
    timer.unref();
    server.close((error) => {
      clearTimeout(timer);
      upgrades.close();
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
