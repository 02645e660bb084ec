/**
 * Middleware for what every app needs, on web standards only (the same code on every runtime), with
 * safe defaults: `cors`, `csrf` (a declared 403), `secureHeaders` (with a per-request CSP nonce),
 * `bodyLimit` (a declared 413) and `logger`.
 *
 * @example
 * import { cors, csrf, secureHeaders } from "portico/middleware";
 * app.use(secureHeaders());
 * app.use(cors({ origin: ["https://app.example"] }));
 * app.use(csrf());
 *
 * @module
 */

export { bodyLimit, PayloadTooLarge } from "./body-limit.ts";
export { type CorsOptions, cors } from "./cors.ts";
export { CrossSiteRequestRefused, type CsrfOptions, csrf } from "./csrf.ts";
export type { DeclaringMiddleware } from "./declaring.ts";
export { type LogEntry, type LoggerOptions, logger } from "./logger.ts";
export {
  type CspSource,
  cspNonce,
  NONCE,
  type SecureHeadersOptions,
  secureHeaders,
} from "./secure-headers.ts";
