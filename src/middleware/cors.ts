import type { Context } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import { appendVary } from "../http/vary.ts";
import { TOKEN } from "../wire/contract.ts";

/** Options of {@link cors}. */
export interface CorsOptions {
  /**
   * The origins allowed: a list (exact `scheme://host[:port]` strings), `"*"` (any, never with
   * credentials), or a function that decides. Required: there is no reflect-anything default.
   */
  readonly origin: "*" | readonly string[] | ((origin: string, ctx: Context<unknown>) => boolean);
  /** Send `Access-Control-Allow-Credentials: true` (cookies, auth). Default `false`. */
  readonly credentials?: boolean;
  /** Methods allowed in preflights. Default GET, HEAD, PUT, POST, DELETE, PATCH. */
  readonly allowMethods?: readonly string[];
  /** Request headers allowed in preflights. Default: those the preflight asks for (each a valid name). */
  readonly allowHeaders?: readonly string[];
  /** Response headers the page may read. Default none. */
  readonly exposeHeaders?: readonly string[];
  /** How long browsers may cache a preflight, in seconds. Default 600. */
  readonly maxAge?: number;
}

const DEFAULT_METHODS = ["GET", "HEAD", "PUT", "POST", "DELETE", "PATCH"];

function tokenList(name: string, values: readonly string[]): string {
  for (const value of values) {
    if (!TOKEN.test(value)) throw new TypeError(`cors(): invalid ${name} entry ${JSON.stringify(value)}`);
  }
  return values.join(", ");
}

/**
 * Cross-origin resource sharing: answers preflights (`OPTIONS` with `Access-Control-Request-Method`)
 * and adds the CORS headers to responses for allowed origins. `Vary: Origin` whenever the answer
 * depends on the origin; an origin is echoed only when it is allowed, and `"*"` cannot go with
 * credentials.
 *
 * @example
 * app.use(cors({ origin: ["https://app.example"], credentials: true }));
 */
export function cors(options: CorsOptions): Middleware<unknown> {
  const { origin, credentials = false, maxAge = 600 } = options;
  if (origin === "*" && credentials) {
    throw new TypeError('cors(): origin "*" cannot be used with credentials; list the origins instead');
  }
  if (!Number.isSafeInteger(maxAge) || maxAge < 0)
    throw new TypeError("cors(): maxAge must be whole seconds");
  const methods = tokenList("allowMethods", options.allowMethods ?? DEFAULT_METHODS);
  const fixedHeaders = options.allowHeaders && tokenList("allowHeaders", options.allowHeaders);
  const expose = options.exposeHeaders && tokenList("exposeHeaders", options.exposeHeaders);
  const list = Array.isArray(origin) ? new Set<string>(origin) : undefined;
  const allowed = (value: string, ctx: Context<unknown>): boolean =>
    origin === "*"
      ? true
      : list
        ? list.has(value)
        : (origin as (o: string, c: Context<unknown>) => boolean)(value, ctx);
  const varies = origin !== "*";

  return (ctx, next) => {
    // Read one by one: on the Node adapter, `ctx.request.headers` would build all of them (a third of
    // a plain request's CPU behind this middleware, logger() and secureHeaders()).
    const request = ctx.request;
    const requestOrigin = request.header("origin");
    const preflight =
      request.method === "OPTIONS" && request.header("access-control-request-method") !== null;
    const out = ctx.response.headers;
    if (varies) appendVary(out, "Origin");
    const ok = requestOrigin !== null && allowed(requestOrigin, ctx);
    if (ok) {
      out.set("access-control-allow-origin", origin === "*" ? "*" : requestOrigin);
      if (credentials) out.set("access-control-allow-credentials", "true");
    }
    if (!preflight) {
      if (ok && expose) out.set("access-control-expose-headers", expose);
      return next();
    }
    ctx.response.status = 204;
    if (!ok) return;
    out.set("access-control-allow-methods", methods);
    let allowHeaders = fixedHeaders;
    if (allowHeaders === undefined) {
      // The asked-for names, each checked, so that nothing but header names is ever echoed.
      const asked = (request.header("access-control-request-headers") ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter((name) => TOKEN.test(name));
      allowHeaders = asked.join(", ");
      appendVary(out, "Access-Control-Request-Headers");
    }
    if (allowHeaders !== "") out.set("access-control-allow-headers", allowHeaders);
    out.set("access-control-max-age", String(maxAge));
  };
}
