// Shutting servers down when the process is asked to stop (SIGTERM from an orchestrator, SIGINT from a
// terminal): every server of the process closes gracefully (stop accepting, websockets closed with 1001,
// requests in flight finished within the grace period, `app.close()`), then the signal is raised again
// with Portico's listeners gone, so the process ends as it would have (unless the app listens to the
// signal itself: it then decides). A second signal while closing ends the process at once.

/** A signal `serve()` can shut down on. */
export type ShutdownSignal = "SIGTERM" | "SIGINT" | "SIGHUP" | "SIGQUIT" | "SIGUSR2";

/** The signals `serve()` handles unless told otherwise. */
const DEFAULT_SIGNALS: readonly ShutdownSignal[] = ["SIGTERM", "SIGINT"];

/** How a runtime's process is told of a signal (Node's and Bun's `process`, `Deno.addSignalListener`). */
export interface SignalHost {
  on(signal: ShutdownSignal, listener: () => void): void;
  off(signal: ShutdownSignal, listener: () => void): void;
  /** Whether anything else listens to the signal (then it, not Portico, ends the process). */
  othersListen(signal: ShutdownSignal): boolean;
  /** Sends the signal to this process. */
  raise(signal: ShutdownSignal): void;
}

/** A server that closes on a signal. */
interface Closing {
  readonly signals: readonly ShutdownSignal[];
  close(): Promise<void>;
  report(message: string): void;
}

const servers = new Set<Closing>();
const listeners = new Map<ShutdownSignal, () => void>();
let host: SignalHost | undefined;
let shuttingDown = false;

/**
 * Closes the server on these signals (`false`: none) and returns what forgets it (its own `close()`
 * calls that: a closed server does not keep listening).
 */
export function closeOnSignals(
  on: SignalHost,
  signals: readonly ShutdownSignal[] | false | undefined,
  close: () => Promise<void>,
  report: (message: string) => void,
): () => void {
  const chosen = checkSignals(signals);
  if (chosen.length === 0) return () => {};
  host = on;
  const server: Closing = { signals: chosen, close, report };
  servers.add(server);
  listen();
  return () => {
    servers.delete(server);
    if (!shuttingDown) listen();
  };
}

const KNOWN = new Set<string>(["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR2"]);

/** The signals `serve()`'s `signals` option names (default: SIGTERM and SIGINT); throws on another. */
export function checkSignals(
  signals: readonly ShutdownSignal[] | false | undefined,
): readonly ShutdownSignal[] {
  const chosen = signals === undefined ? DEFAULT_SIGNALS : signals === false ? [] : [...signals];
  for (const signal of chosen) {
    if (!KNOWN.has(signal)) {
      throw new TypeError(`signals: ${JSON.stringify(signal)} is not a signal serve() can shut down on`);
    }
  }
  return chosen;
}

// One listener per signal some open server wants.
function listen(): void {
  const wanted = new Set([...servers].flatMap((server) => server.signals));
  for (const [signal, listener] of listeners) {
    if (wanted.has(signal)) continue;
    host?.off(signal, listener);
    listeners.delete(signal);
  }
  for (const signal of wanted) {
    if (listeners.has(signal)) continue;
    const listener = () => void shutDown(signal);
    listeners.set(signal, listener);
    host?.on(signal, listener);
  }
}

async function shutDown(signal: ShutdownSignal): Promise<void> {
  const on = host!;
  if (shuttingDown) {
    // Asked twice: stop waiting.
    forget(on);
    on.raise(signal);
    return;
  }
  shuttingDown = true;
  const closing = [...servers].filter((server) => server.signals.includes(signal));
  closing[0]?.report(
    `[portico] ${signal}: closing ${closing.length === 1 ? "the server" : `${closing.length} servers`}`,
  );
  await Promise.allSettled(closing.map((server) => server.close()));
  forget(on);
  if (!on.othersListen(signal)) on.raise(signal);
}

function forget(on: SignalHost): void {
  for (const [signal, listener] of listeners) on.off(signal, listener);
  listeners.clear();
}

/** Node's and Bun's `process` as a {@link SignalHost}. */
export function processSignals(proc: {
  on(signal: string, listener: () => void): unknown;
  off(signal: string, listener: () => void): unknown;
  listenerCount(signal: string): number;
  kill(pid: number, signal: string): unknown;
  readonly pid: number;
}): SignalHost {
  return {
    on: (signal, listener) => proc.on(signal, listener),
    off: (signal, listener) => proc.off(signal, listener),
    othersListen: (signal) => proc.listenerCount(signal) > 0,
    raise: (signal) => proc.kill(proc.pid, signal),
  };
}

/** Where a shutdown is told: the app's logger (`info`, else `warn`), else the console. */
export function reporter(app: object): (message: string) => void {
  const logger = (app as { logger?: { info?(message: string): void; warn?(message: string): void } }).logger;
  const log = logger?.info ?? logger?.warn;
  return log === undefined ? (message) => console.info(message) : (message) => log.call(logger, message);
}
