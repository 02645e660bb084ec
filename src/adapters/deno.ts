/**
 * Deno needs nothing more than the app: `Deno.serve(app.fetch)`, or `deno serve` with
 * `export default app`. This module adds a `serve` helper with the same handle as `portico/node`
 * (a URL and a graceful `close()`).
 *
 * @example
 * import { serve } from "portico/deno";
 * const server = serve(app, { port: 3000 });
 * console.log(`Listening on ${server.url}`);
 *
 * @module
 */

import { fetchOn } from "../app/create-app.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { denoRuntime } from "./deno-runtime.ts";

const PLAIN_HTTP: Runtime = { ...denoRuntime, scheme: "http" };

/** What Deno takes from a Portico app. */
export interface DenoApp {
  /** Answers a request (Deno passes connection info as the second argument). */
  fetch(request: Request, info: unknown): Response | Promise<Response>;
  /** Releases what the app holds (a Portico app's topic backplane): the server's `close()` calls it. */
  close?(): Promise<void>;
}

interface DenoServer {
  readonly addr: { readonly hostname: string; readonly port: number };
  shutdown(): Promise<void>;
}

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen?: (address: unknown) => void },
    handler: DenoApp["fetch"],
  ): DenoServer;
};

/** Options of {@link serve}. */
export interface DenoServeOptions {
  /** The port; `0` picks a free one. Default `3000`. */
  readonly port?: number;
  /** The interface. Default `127.0.0.1`; `0.0.0.0` accepts remote clients. */
  readonly hostname?: string;
}

/** A running Deno server. */
export interface DenoServerHandle {
  /** Where it listens. */
  readonly url: URL;
  /** The port it listens on. */
  readonly port: number;
  /** Stops accepting connections, closes the app (`app.close()`: websockets with 1001, then its backplane), waits for requests in flight. */
  close(): Promise<void>;
}

/**
 * Serves an app with `Deno.serve`, websockets included.
 *
 * @example
 * const server = serve(app, { port: 0 });
 * await server.close();
 */
export function serve(app: DenoApp, options: DenoServeOptions = {}): DenoServerHandle {
  // Its server has no TLS: an absolute-form `https://…` target does not make the request's URL https.
  const fetch = fetchOn(app, PLAIN_HTTP) ?? app.fetch;
  const server = Deno.serve(
    { port: options.port ?? 3000, hostname: options.hostname ?? "127.0.0.1", onListen: () => {} },
    fetch,
  );
  const { hostname, port } = server.addr;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    url: new URL(`http://${host}:${port}/`),
    port,
    close: () => closeServer(server.shutdown(), app),
  };
}

// Stops accepting first; the app then closes its websockets (1001) and its backplane; then the
// server's own shutdown, which waits for requests in flight, is awaited.
async function closeServer(stopping: Promise<void>, app: DenoApp): Promise<void> {
  await app.close?.();
  await stopping;
}
