/**
 * Bun needs nothing more than the app: `export default app`, or `Bun.serve(app)`, hands Bun the
 * app's `fetch` and `websocket`. This module adds a `serve` helper with the same handle as
 * `portico/node` (a URL and a graceful `close()`).
 *
 * @example
 * import { serve } from "portico/bun";
 * const server = serve(app, { port: 3000 });
 * console.log(`Listening on ${server.url}`);
 *
 * @module
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

/** The part of `Bun.serve()`'s server this module uses. */
interface BunServer {
  readonly url: URL;
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: BunApp["fetch"]; websocket: object }): BunServer;
};

/** Options of {@link serve}. */
export interface BunServeOptions {
  /** The port; `0` picks a free one. Default `3000`. */
  readonly port?: number;
  /** The interface. Default `127.0.0.1`; `0.0.0.0` accepts remote clients. */
  readonly hostname?: string;
}

/** A running Bun server. */
export interface BunServerHandle {
  /** Where it listens. */
  readonly url: URL;
  /** The port it listens on. */
  readonly port: number;
  /** Stops accepting connections, closes the app (`app.close()`: websockets with 1001, then its backplane), waits for those in flight. */
  close(): Promise<void>;
}

/**
 * Serves an app with `Bun.serve`, websockets included.
 *
 * @example
 * const server = serve(app, { port: 0 });
 * await server.close();
 */
export function serve(app: BunApp, options: BunServeOptions = {}): BunServerHandle {
  const server = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.hostname ?? "127.0.0.1",
    fetch: app.fetch,
    websocket: app.websocket,
  });
  return { url: server.url, port: server.port, close: () => closeServer(server.stop(), app) };
}

// Stops accepting first (Bun's `stop()` lets open connections finish); the app then closes its
// websockets (1001) and its backplane; then the stop is awaited.
async function closeServer(stopping: Promise<void>, app: BunApp): Promise<void> {
  await app.close?.();
  await stopping;
}
