/**
 * Middleware for what every app needs, on web standards only (the same code on every runtime), with
 * safe defaults: `cors`, `csrf` (a declared 403), `secureHeaders` (with a per-request CSP nonce),
 * `etag` (304, and a declared 412), `compress`, `bodyLimit` (a declared 413), `timeout` (a declared 503),
 * `logger`, `bearerAuth` / `basicAuth` (a declared 401, constant-time checks, security schemes), and
 * `rateLimit` (a declared 429) counting in a `memoryStore()` or a `redisStore()` (needs `redis`), and
 * `health()` (liveness and readiness handlers).
 *
 * @example
 * import { cors, csrf, secureHeaders } from "portico/middleware";
 * app.use(secureHeaders());
 * app.use(cors({ origin: ["https://app.example"] }));
 * app.use(csrf());
 *
 * @module portico/middleware
 */

export {
  type BasicAuthOptions,
  type BearerAuthOptions,
  basicAuth,
  bearerAuth,
  Unauthorized,
  type UpgradeTokenSource,
  type WebsocketTokenOption,
} from "./auth.ts";
export { bodyLimit, PayloadTooLarge } from "./body-limit.ts";
export { type CompressOptions, compress, type Encoding } from "./compress.ts";
export { type CorsOptions, cors } from "./cors.ts";
export { CrossSiteRequestRefused, type CsrfOptions, csrf } from "./csrf.ts";
export { type DeclaringMiddleware, declaring, type MiddlewareDeclaration } from "./declaring.ts";
export { type EtagOptions, etag, PreconditionFailed } from "./etag.ts";
export { type HealthCheck, type HealthHandlers, type HealthOptions, health } from "./health.ts";
export { type LogEntry, type LoggerOptions, logger } from "./logger.ts";
export { type JwtIsElsewhere, jwt } from "./moved.ts";
export { type RateLimitOptions, rateLimit, TooManyRequests } from "./rate-limit.ts";
export { type RedisStoreOptions, redisStore } from "./redis-store.ts";
export {
  type CspSource,
  cspNonce,
  NONCE,
  type SecureHeadersOptions,
  secureHeaders,
} from "./secure-headers.ts";
export {
  type KeyValueStore,
  type MemoryStoreOptions,
  memoryStore,
  type StoreCount,
} from "./store.ts";
export { HandlerTimeout, timeout } from "./timeout.ts";
