import type { Context } from "../context/context.ts";
import { parseCookies } from "../http/cookie-header.ts";
import { type CookieOptions, checkName, serializeCookie } from "./serialize.ts";

/** What the cookie helpers need of a context (a `Context`, or `ep.context`). */
export type CookieContext = Pick<Context<unknown>, "request" | "response">;

/**
 * Reads one cookie of the request: its value (percent-decoded), or `undefined` when absent.
 *
 * @example
 * const theme = getCookie(ctx, "theme");
 */
export function getCookie(ctx: CookieContext, name: string): string | undefined;
/**
 * Reads every cookie of the request, by name, in an object with no inherited keys.
 *
 * @example
 * const all = getCookie(ctx);
 */
export function getCookie(ctx: CookieContext): Record<string, string>;
export function getCookie(ctx: CookieContext, name?: string): string | undefined | Record<string, string> {
  const cookies = parseCookies(ctx.request.headers.get("cookie"));
  return name === undefined ? cookies : cookies[name];
}

/**
 * Sets a cookie on the response. The value is percent-encoded; the name and every attribute are
 * checked (a bad one throws, so no input can add an attribute). Defaults: `Path=/`, `HttpOnly`,
 * `SameSite=Lax`; `__Secure-`/`__Host-` names get `Secure` and their prefix rules; `secure: "auto"` is
 * `Secure` when the request's (public) URL is `https`.
 *
 * @example
 * setCookie(ctx, "theme", "dark", { maxAge: 60 * 60 * 24 * 365 });
 */
export function setCookie(ctx: CookieContext, name: string, value: string, options?: CookieOptions): void {
  const resolved =
    options?.secure === "auto" && ctx.request.url.startsWith("https:")
      ? { ...options, secure: true }
      : options;
  ctx.response.headers.append("set-cookie", serializeCookie(name, value, resolved));
}

/**
 * Deletes a cookie (sets it empty with `Max-Age=0`); give the `path` and `domain` it was set with.
 * Returns the value the request carried.
 *
 * @example
 * deleteCookie(ctx, "session");
 */
export function deleteCookie(
  ctx: CookieContext,
  name: string,
  options: Pick<CookieOptions, "path" | "domain" | "secure" | "partitioned"> = {},
): string | undefined {
  checkName(name);
  const previous = getCookie(ctx, name);
  setCookie(ctx, name, "", { ...options, maxAge: 0, expires: new Date(0) });
  return previous;
}

export type { CookieOptions };
