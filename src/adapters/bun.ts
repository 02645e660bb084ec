/**
 * Bun needs nothing more than the app: `export default app`, or `Bun.serve(app)`, hands Bun the
 * app's `fetch` and `websocket`. This module adds a `serve` helper with the same handle as
 * `portico/node` (a URL and a graceful `close()`).
 *
 * @example
 * import { serve } from "portico/bun";
 * const server = await serve(app, { port: 3000 });
 * console.log(`Listening on ${server.url}`);
 *
 * @module portico/bun
 */

/** What Bun takes from a Portico app. */
export interface BunApp {
  /** Answers a request (Bun passes its server as the second argument). */
  fetch(request: Request, server: unknown): Response | Promise<Response>;
  /** Bun's websocket handlers. */
  readonly websocket: object;
  /** Releases what the app holds (a Portico app's topic backplane): the server's `close()` calls it. */
  close?(): Promise<void>;
}

import { closeSocketsOf, startOf } from "../app/states.ts";
import { settleWithin } from "../runtime/settle-within.ts";
import { checkSignals, closeOnSignals, processSignals, reporter, type ShutdownSignal } from "./signals.ts";

export type { ShutdownSignal } from "./signals.ts";

/** The part of `Bun.serve()`'s server this module uses. */
interface BunServer {
  readonly url: URL;
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

declare const process: Parameters<typeof processSignals>[0];
declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: BunApp["fetch"]; websocket: object }): BunServer;
};

/** Options of {@link serve}. */
export interface BunServeOptions {
  /** The port; `0` picks a free one. Default `3000`. */
  readonly port?: number;
  /** The interface. Default `127.0.0.1`; `0.0.0.0` accepts remote clients. */
  readonly hostname?: string;
  /** How long `close()` waits for requests in flight before cutting connections, in ms. Default 10 000. */
  readonly gracePeriod?: number;
  /**
   * The signals that close the server gracefully (`close()`), then end the process: default
   * `["SIGTERM", "SIGINT"]`; `false` leaves signals to the app. A second signal ends it at once.
   */
  readonly signals?: readonly ShutdownSignal[] | false;
}

/** A running Bun server. */
export interface BunServerHandle {
  /** Where it listens. */
  readonly url: URL;
  /** The port it listens on. */
  readonly port: number;
  /**
   * Stops accepting connections, closes websockets with 1001, lets requests in flight finish (up to the
   * grace period), then closes the app (`app.close()`: its backplane, its `onClose()` hooks).
   */
  close(): Promise<void>;
}

/**
 * Serves an app with `Bun.serve`, websockets included: runs its `onStart()` hooks (a failure rejects,
 * and nothing listens), then resolves once it listens. On SIGTERM or SIGINT (see `signals`) it closes
 * gracefully.
 *
 * @example
 * const server = await serve(app, { port: 0 });
 * await server.close();
 */
export async function serve(app: BunApp, options: BunServeOptions = {}): Promise<BunServerHandle> {
  checkSignals(options.signals);
  await startOf(app);
  const server = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.hostname ?? "127.0.0.1",
    fetch: app.fetch,
    websocket: app.websocket,
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    forget();
    closed ??= shutdown(server, app, options.gracePeriod ?? 10_000);
    return closed;
  };
  const forget = closeOnSignals(processSignals(process), options.signals, close, reporter(app));
  return { url: server.url, port: server.port, close };
}

// Stops accepting (Bun's `stop()` lets open connections finish), closes the websockets (1001), waits
// for the requests in flight up to the grace period (then cuts them), then closes the app.
async function shutdown(server: BunServer, app: BunApp, gracePeriod: number): Promise<void> {
  const stopping = server.stop();
  await closeSocketsOf(app);
  if (!(await settleWithin(stopping, gracePeriod))) await server.stop(true);
  await app.close?.();
}
