// `rateLimit()`: a fixed window of requests per client, counted in a store (`memoryStore()` for one
// instance, `redisStore()` for all of them), answered past its limit by the declared 429
// `TooManyRequests` with `Retry-After`, and announced on every answer by the `RateLimit-*` headers.
import type { Context } from "../context/context.ts";
import type { DeclaringMiddleware } from "../context/route-doc.ts";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import { clientNetwork } from "../http/ip.ts";
import { declaring } from "./declaring.ts";
import { type KeyValueStore, memoryStore } from "./store.ts";

/** 429: the client sent more requests than its limit allows (`Retry-After` says when to try again). */
export const TooManyRequests: ErrorClass<undefined> = defineError("TooManyRequests", 429, {
  message: "Too many requests: try again later",
});

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** The window, in milliseconds (`60_000`: per minute). */
  readonly windowMs: number;
  /** The requests a client may send in a window. */
  readonly max: number;
  /**
   * Who is counted: default the client's network — its address (`ctx.request.ip`, which honours
   * `trustProxy`), or its /64 for IPv6. Give a user id for per-user limits. Requests whose client is
   * unknown share one count.
   */
  readonly key?: (ctx: Context<unknown>) => string | Promise<string>;
  /** Where counts are kept (default a `memoryStore()` of this instance). */
  readonly store?: KeyValueStore;
  /** Put before every key (default `"rate:"`): two limits on one store need two prefixes. */
  readonly prefix?: string;
  /** Requests not counted (health checks, an allow-list). */
  readonly skip?: (ctx: Context<unknown>) => boolean;
  /**
   * When the store fails (Redis away): the request goes through uncounted (default), and the error is
   * given here (default `console.error`). Return `"refuse"` to answer 503 instead.
   */
  readonly onStoreError?: (error: unknown, ctx: Context<unknown>) => "allow" | "refuse" | undefined;
  /**
   * Which headers announce the limit: `"legacy"` (default: `RateLimit-Limit`, `-Remaining`, `-Reset`,
   * as most clients read today), `"draft"` (the IETF draft's `RateLimit-Policy: "<policy>";q=<max>;w=<s>`
   * and `RateLimit: "<policy>";r=<left>;t=<s>`, draft-ietf-httpapi-ratelimit-headers-08 to -11), or
   * `"both"`.
   */
  readonly headers?: "legacy" | "draft" | "both";
  /** The policy's name in the draft's headers (default `"default"`; a token of letters, digits, `_-.`). */
  readonly policy?: string;
}

/** 503: the rate limit could not be checked (its store failed) and the app chose to refuse. */
const LimitUnavailable = defineError("RateLimitUnavailable", 503, {
  message: "The rate limit cannot be checked right now",
});

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/**
 * Limits each client to `max` requests per `windowMs`. Every answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window ends); a request past the limit
 * is the declared 429 `TooManyRequests` with `Retry-After`. The document shows the 429 and the headers.
 *
 * @example
 * app.on("/api", (r) => r.use(rateLimit({ windowMs: 60_000, max: 100 })));
 * app.on("/login", (r) => r.use(rateLimit({ windowMs: 15 * 60_000, max: 5, prefix: "login:" })).post("/", Login));
 */
export function rateLimit(
  options: RateLimitOptions,
): DeclaringMiddleware<{ readonly TooManyRequests: typeof TooManyRequests }> {
  const { windowMs, max } = options;
  if (!Number.isFinite(windowMs) || windowMs < 1)
    throw new TypeError("rateLimit(): windowMs must be a number of milliseconds, at least 1");
  if (!Number.isInteger(max) || max < 1) throw new TypeError("rateLimit(): max must be a positive integer");
  const store = options.store ?? memoryStore();
  const prefix = options.prefix ?? "rate:";
  const keyOf =
    options.key ?? ((ctx) => (ctx.request.ip === undefined ? "unknown" : clientNetwork(ctx.request.ip)));
  const onStoreError =
    options.onStoreError ??
    ((error: unknown) => {
      console.error("rateLimit(): the store failed; the request goes through uncounted", error);
      return "allow" as const;
    });
  const style = options.headers ?? "legacy";
  if (!["legacy", "draft", "both"].includes(style))
    throw new TypeError(
      `rateLimit(): headers must be "legacy", "draft" or "both", got ${JSON.stringify(style)}`,
    );
  const policy = options.policy ?? "default";
  if (!/^[A-Za-z0-9_.-]+$/.test(policy))
    throw new TypeError(
      `rateLimit(): policy must be letters, digits, "_", "-" or ".", got ${JSON.stringify(policy)}`,
    );
  const announce = announcer(style, policy, max, seconds(windowMs));
  return declaring(
    async (ctx, next) => {
      if (options.skip?.(ctx)) return next();
      let count: number;
      let resetAt: number;
      try {
        ({ count, resetAt } = await store.increment(prefix + (await keyOf(ctx)), windowMs, max));
      } catch (error) {
        if (onStoreError(error, ctx) === "refuse") throw new LimitUnavailable();
        return next();
      }
      const reset = String(seconds(resetAt - Date.now()));
      const headers = announce(Math.max(0, max - count), reset);
      if (count > max)
        throw Object.assign(new TooManyRequests(), { headers: { ...headers, "retry-after": reset } });
      for (const [name, value] of Object.entries(headers)) ctx.response.headers.set(name, value);
      return next();
    },
    { errors: { TooManyRequests }, headers: documented(style) },
  );
}

// The headers of one answer, from what is left and the seconds until the window ends.
function announcer(style: string, policy: string, max: number, window: number) {
  const quota = `"${policy}";q=${max};w=${window}`;
  const limit = String(max);
  return (left: number, reset: string): Record<string, string> => ({
    ...(style === "draft"
      ? {}
      : { "ratelimit-limit": limit, "ratelimit-remaining": String(left), "ratelimit-reset": reset }),
    ...(style === "legacy"
      ? {}
      : { "ratelimit-policy": quota, ratelimit: `"${policy}";r=${left};t=${reset}` }),
  });
}

function documented(style: string) {
  const integer = { type: "integer" } as const;
  const text = { type: "string" } as const;
  return {
    ...(style === "draft"
      ? {}
      : {
          "RateLimit-Limit": { description: "The requests allowed in a window", schema: integer },
          "RateLimit-Remaining": { description: "The requests left in this window", schema: integer },
          "RateLimit-Reset": { description: "Seconds until the window ends", schema: integer },
        }),
    ...(style === "legacy"
      ? {}
      : {
          "RateLimit-Policy": {
            description: 'The quota: `"<policy>";q=<requests>;w=<seconds>`',
            schema: text,
          },
          RateLimit: { description: 'What is left: `"<policy>";r=<requests>;t=<seconds>`', schema: text },
        }),
  };
}
