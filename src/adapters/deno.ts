/**
 * Deno needs nothing more than the app: `Deno.serve(app.fetch)`, or `deno serve` with
 * `export default app`. This module adds a `serve` helper with the same handle as `portico/node`
 * (a URL and a graceful `close()`).
 *
 * @example
 * import { serve } from "portico/deno";
 * const server = await serve(app, { port: 3000 });
 * console.log(`Listening on ${server.url}`);
 *
 * @module portico/deno
 */

import { closeSocketsOf, fetchOn, startOf } from "../app/states.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { settleWithin } from "../runtime/settle-within.ts";
import { denoRuntime } from "./deno-runtime.ts";
import { checkSignals, closeOnSignals, reporter, type ShutdownSignal, type SignalHost } from "./signals.ts";

export type { ShutdownSignal } from "./signals.ts";

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
  exit(code: number): never;
  addSignalListener(signal: string, listener: () => void): void;
  removeSignalListener(signal: string, listener: () => void): void;
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
  /**
   * How long `close()` waits for requests in flight, in ms, before closing the app anyway (Deno's server
   * has no way to cut them: on a signal, the process then ends). Default 10 000.
   */
  readonly gracePeriod?: number;
  /**
   * The signals that close the server gracefully (`close()`), then end the process: default
   * `["SIGTERM", "SIGINT"]`; `false` leaves signals to the app. A second signal ends it at once.
   */
  readonly signals?: readonly ShutdownSignal[] | false;
}

/** A running Deno server. */
export interface DenoServerHandle {
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
 * Serves an app with `Deno.serve`, websockets included: runs its `onStart()` hooks (a failure rejects,
 * and nothing listens), then resolves once it listens. On SIGTERM or SIGINT (see `signals`) it closes
 * gracefully.
 *
 * @example
 * const server = await serve(app, { port: 0 });
 * await server.close();
 */
export async function serve(app: DenoApp, options: DenoServeOptions = {}): Promise<DenoServerHandle> {
  checkSignals(options.signals);
  await startOf(app);
  // Its server has no TLS: an absolute-form `https://…` target does not make the request's URL https.
  const fetch = fetchOn(app, PLAIN_HTTP) ?? app.fetch;
  const server = Deno.serve(
    { port: options.port ?? 3000, hostname: options.hostname ?? "127.0.0.1", onListen: () => {} },
    fetch,
  );
  const { hostname, port } = server.addr;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    forget();
    closed ??= shutdown(server, app, options.gracePeriod ?? 10_000);
    return closed;
  };
  const forget = closeOnSignals(DENO_SIGNALS, options.signals, close, reporter(app));
  return { url: new URL(`http://${host}:${port}/`), port, close };
}

// Stops accepting (Deno's `shutdown()` lets requests in flight finish), closes the websockets (1001),
// waits for the requests up to the grace period, then closes the app.
async function shutdown(server: DenoServer, app: DenoApp, gracePeriod: number): Promise<void> {
  const stopping = server.shutdown();
  await closeSocketsOf(app);
  await settleWithin(stopping, gracePeriod);
  await app.close?.();
}

const SIGNAL_NUMBERS: Partial<Record<ShutdownSignal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGUSR2: 12,
};

const DENO_SIGNALS: SignalHost = {
  on: (signal, listener) => Deno.addSignalListener(signal, listener),
  off: (signal, listener) => Deno.removeSignalListener(signal, listener),
  othersListen: () => false,
  // `Deno.kill` needs `--allow-run`: the process ends with the code a shell gives a signalled one.
  raise: (signal) => Deno.exit(128 + (SIGNAL_NUMBERS[signal] ?? 15)),
};
