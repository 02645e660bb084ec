import type { Context } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import { type DeclaringMiddleware, declaring } from "./declaring.ts";

/** The error {@link csrf} refuses a request with (403). */
export const CrossSiteRequestRefused: ErrorClass<undefined> = defineError("CrossSiteRequestRefused", 403, {
  message: "Cross-site request refused: this action must come from the site itself",
});

/** Options of {@link csrf}. */
export interface CsrfOptions {
  /** Other origins allowed to send unsafe requests (`https://admin.example`). */
  readonly trustedOrigins?: readonly string[];
  /** Accept `Sec-Fetch-Site: same-site` (sibling subdomains). Default `false`. */
  readonly allowSameSite?: boolean;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

function isUpgrade(ctx: Context<unknown>): boolean {
  return ctx.request.headers.get("upgrade")?.toLowerCase() === "websocket";
}

/**
 * Cross-site request forgery protection for unsafe methods (everything but GET, HEAD, OPTIONS) and
 * websocket handshakes (a cross-site page must not open a channel with the user's cookies), whatever
 * the body's type: `Sec-Fetch-Site` decides where browsers send it (`same-origin` or `none`
 * pass); otherwise `Origin` must be this request's own host or a trusted origin. Requests with
 * neither header (not from a browser) pass. Refusals are the declared 403 `CrossSiteRequestRefused`.
 *
 * @example
 * app.use(csrf());
 */
export function csrf(options: CsrfOptions = {}): DeclaringMiddleware<{
  readonly CrossSiteRequestRefused: ErrorClass<undefined>;
}> {
  const trusted = new Set(options.trustedOrigins ?? []);
  const allowSameSite = options.allowSameSite === true;
  const check = (ctx: Context<unknown>): boolean => {
    const headers = ctx.request.headers;
    const origin = headers.get("origin");
    if (origin !== null && trusted.has(origin)) return true;
    const site = headers.get("sec-fetch-site");
    if (site !== null)
      return site === "same-origin" || site === "none" || (allowSameSite && site === "same-site");
    if (origin === null) return true;
    try {
      return new URL(origin).host === new URL(ctx.request.url).host;
    } catch {
      return false; // "null" and anything unparseable
    }
  };
  // A websocket handshake is a GET that opens a channel carrying the site's cookies: checked like an
  // unsafe request (Cross-Site WebSocket Hijacking).
  const middleware: Middleware<unknown> = (ctx, next) => {
    if ((SAFE.has(ctx.request.method) && !isUpgrade(ctx)) || check(ctx)) return next();
    throw new CrossSiteRequestRefused();
  };
  // (On an HTTP route, a GET is never refused: the handshakes it checks are websocket routes'.)
  return declaring(middleware, {
    errors: { CrossSiteRequestRefused },
    declaresFor: (method) => !SAFE.has(method),
  });
}
