// `health()`: the liveness and readiness answers an orchestrator polls. Live: the process answers.
// Ready: the app's topic backplane is connected and each of the app's own checks (a database ping)
// passed within its time — else a 503 naming what is not ready, never the failure's details.
// One run of the checks is shared by every request that arrives while it is in flight (fifty pollers
// do not ping the database fifty times), and `cacheMs` keeps its result a little longer.
import type { Context } from "../context/context.ts";
import type { TopicHealth } from "../pubsub/driver.ts";

/** Options of {@link health}. */
export interface HealthOptions {
  /** The app, whose topics' backplane must be connected to be ready (`app.topicHealth()`). */
  readonly app?: { topicHealth(): TopicHealth };
  /**
   * Named checks: each passes when it returns or resolves (to anything but `false`); a throw fails it.
   * Each is given an `AbortSignal` that is aborted when `timeoutMs` expires: pass it on (`fetch`, a
   * driver's query) so that a check that timed out stops instead of running on. A check that ignores it
   * still works, but keeps running after its answer was given up.
   */
  readonly checks?: Readonly<Record<string, (signal: AbortSignal) => unknown>>;
  /** How long each check may take, in milliseconds (default 2000): past it, it has failed. */
  readonly timeoutMs?: number;
  /**
   * How long a run's result answers later requests, in milliseconds, counted from when the run ended
   * (default 0: only requests that arrive while a run is in flight share it; every other one starts a run).
   */
  readonly cacheMs?: number;
}

/** One check's outcome in a readiness answer. */
export interface HealthCheck {
  /** Whether it passed. */
  readonly ok: boolean;
  /** `"failed"` or `"timed out"` when not ok (the error itself is not shown: health answers are often public). */
  readonly error?: "failed" | "timed out";
  /** How long it took, in milliseconds. */
  readonly ms: number;
}

/** The two handlers: route them where the platform polls (`/livez`, `/readyz`). */
export interface HealthHandlers {
  /** 200 while the process answers. */
  readonly live: (ctx: Context<unknown>) => Response;
  /** 200 when every check passes, else 503; the body says which passed (`{ status, checks }`). */
  readonly ready: (ctx: Context<unknown>) => Promise<Response>;
}

type Check = (signal: AbortSignal) => unknown;
type Results = Readonly<Record<string, HealthCheck>>;

const NO_STORE = { "cache-control": "no-store" };

/**
 * Liveness and readiness handlers: readiness runs the checks at once, each within `timeoutMs`, with the
 * app's topic backplane as the check `topics`; concurrent requests share one run, and `cacheMs` keeps
 * its result for later ones.
 *
 * @example
 * const { live, ready } = health({
 *   app,
 *   checks: { db: (signal) => db.query("SELECT 1", { signal }) },
 *   cacheMs: 1000,
 * });
 * app.get("/livez", live);
 * app.get("/readyz", ready);
 */
export function health(options: HealthOptions = {}): HealthHandlers {
  const timeoutMs = options.timeoutMs ?? 2000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError("health(): timeoutMs must be a positive number of milliseconds");
  const cacheMs = options.cacheMs ?? 0;
  if (!Number.isFinite(cacheMs) || cacheMs < 0)
    throw new TypeError("health(): cacheMs must be zero or a positive number of milliseconds");
  const checks = Object.entries(options.checks ?? {});
  if (options.app !== undefined && options.checks?.topics !== undefined)
    throw new TypeError('health(): "topics" is the name of the backplane\'s check; name yours otherwise');
  for (const [name, check] of checks)
    if (typeof check !== "function") throw new TypeError(`health(): the check "${name}" must be a function`);

  const evaluate = async (): Promise<Results> => {
    const results: Record<string, HealthCheck> = Object.create(null);
    if (options.app !== undefined) results.topics = { ok: options.app.topicHealth().connected, ms: 0 };
    Object.assign(results, await runAll(checks, timeoutMs));
    return results;
  };
  let inFlight: Promise<Results> | undefined;
  let last: { readonly results: Results; readonly at: number } | undefined;
  const current = (): Promise<Results> => {
    if (last !== undefined && Date.now() - last.at < cacheMs) return Promise.resolve(last.results);
    inFlight ??= evaluate()
      .then((results) => {
        last = { results, at: Date.now() };
        return results;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  return {
    live: () => Response.json({ status: "live" }, { headers: NO_STORE }),
    async ready() {
      const results = await current();
      const ok = Object.values(results).every((result) => result.ok);
      return Response.json(
        { status: ok ? "ready" : "not ready", checks: results },
        { status: ok ? 200 : 503, headers: NO_STORE },
      );
    },
  };
}

/** Runs every check at once under one deadline, whose expiry aborts the signal they were given. */
async function runAll(checks: readonly [string, Check][], timeoutMs: number): Promise<Results> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"timed out">((resolve) => {
    timer = setTimeout(() => {
      resolve("timed out");
      controller.abort(new DOMException(`health check timed out after ${timeoutMs} ms`, "TimeoutError"));
    }, timeoutMs);
  });
  const results: Record<string, HealthCheck> = Object.create(null);
  try {
    await Promise.all(
      checks.map(async ([name, check]) => {
        results[name] = await runOne(check, controller.signal, late);
      }),
    );
    return results;
  } finally {
    clearTimeout(timer);
  }
}

async function runOne(check: Check, signal: AbortSignal, late: Promise<"timed out">): Promise<HealthCheck> {
  const started = performance.now();
  const outcome = await Promise.race([
    (async () => ((await check(signal)) === false ? "failed" : "passed"))().catch(() =>
      // A check that honours the signal rejects when it is aborted: that is a timeout, not a failure.
      signal.aborted ? ("timed out" as const) : ("failed" as const),
    ),
    late,
  ]);
  const ms = Math.round(performance.now() - started);
  return outcome === "passed" ? { ok: true, ms } : { ok: false, error: outcome, ms };
}
