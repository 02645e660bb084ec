/**
 * Cookies: read, set and delete them with every part validated (RFC 6265), and sign them with
 * HMAC-SHA256 through Web Crypto, with several secrets for rotation. The same code on every runtime.
 *
 * @example
 * import { getCookie, setCookie, getSignedCookie, setSignedCookie } from "portico/cookie";
 * app.post("/login", async (ctx) => {
 *   await setSignedCookie(ctx, "__Host-session", "u42", [SECRET]);
 * });
 *
 * @module portico/cookie
 */

export { type CookieContext, deleteCookie, getCookie, setCookie } from "./cookie.ts";
export type { CookieOptions } from "./serialize.ts";
export { type CookieSecrets, getSignedCookie, setSignedCookie } from "./signed.ts";
