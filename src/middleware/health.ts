// `health()`: the liveness and readiness answers an orchestrator polls. Live: the process answers.
// Ready: the app's topic backplane is connected and each of the app's own checks (a database ping)
// passed within its time — else a 503 naming what is not ready, never the failure's details.
import type { Context } from "../context/context.ts";
import type { TopicHealth } from "../pubsub/driver.ts";

/** Options of {@link health}. */
export interface HealthOptions {
  /** The app, whose topics' backplane must be connected to be ready (`app.topicHealth()`). */
  readonly app?: { topicHealth(): TopicHealth };
  /** Named checks: each passes when it returns or resolves (to anything but `false`); a throw fails it. */
  readonly checks?: Readonly<Record<string, () => unknown>>;
  /** How long each check may take, in milliseconds (default 2000): past it, it has failed. */
  readonly timeoutMs?: number;
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

const NO_STORE = { "cache-control": "no-store" };

/**
 * Liveness and readiness handlers: readiness runs the checks at once, each within `timeoutMs`, with the
 * app's topic backplane as the check `topics`.
 *
 * @example
 * const { live, ready } = health({ app, checks: { db: () => db.query("SELECT 1") } });
 * app.get("/livez", live);
 * app.get("/readyz", ready);
 */
export function health(options: HealthOptions = {}): HealthHandlers {
  const timeoutMs = options.timeoutMs ?? 2000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError("health(): timeoutMs must be a positive number of milliseconds");
  const checks = Object.entries(options.checks ?? {});
  if (options.app !== undefined && options.checks?.topics !== undefined)
    throw new TypeError('health(): "topics" is the name of the backplane\'s check; name yours otherwise');
  for (const [name, check] of checks)
    if (typeof check !== "function") throw new TypeError(`health(): the check "${name}" must be a function`);
  return {
    live: () => Response.json({ status: "live" }, { headers: NO_STORE }),
    async ready() {
      const results: Record<string, HealthCheck> = {};
      if (options.app !== undefined) results.topics = { ok: options.app.topicHealth().connected, ms: 0 };
      await Promise.all(
        checks.map(async ([name, check]) => {
          results[name] = await run(check, timeoutMs);
        }),
      );
      const ok = Object.values(results).every((result) => result.ok);
      return Response.json(
        { status: ok ? "ready" : "not ready", checks: results },
        { status: ok ? 200 : 503, headers: NO_STORE },
      );
    },
  };
}

async function run(check: () => unknown, timeoutMs: number): Promise<HealthCheck> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"timed out">((resolve) => {
    timer = setTimeout(() => resolve("timed out"), timeoutMs);
  });
  try {
    const outcome = await Promise.race([
      (async () => ((await check()) === false ? "failed" : "passed"))().catch(() => "failed" as const),
      late,
    ]);
    const ms = Math.round(performance.now() - started);
    return outcome === "passed" ? { ok: true, ms } : { ok: false, error: outcome, ms };
  } finally {
    clearTimeout(timer);
  }
}
