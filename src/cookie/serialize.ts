// RFC 6265 on the wire: reading the `Cookie` header and writing one `Set-Cookie` value, with every
// part validated so that nothing a caller passes can add an attribute or a header (GHSA-26pp-8wgv-hjvm,
// GHSA-5pq2-9x2x-5p6w: names and `domain`/`path` were not checked on write).

import { TOKEN } from "../wire/contract.ts";

/** Attributes of a cookie being set. Defaults: `path: "/"`, `httpOnly: true`, `sameSite: "Lax"`. */
export interface CookieOptions {
  /** The hosts that receive it (a domain name; leave out for this host only). */
  readonly domain?: string;
  /** The path prefix that receives it. Default `/`. */
  readonly path?: string;
  /** When it expires. */
  readonly expires?: Date;
  /** Lifetime in seconds (`0` deletes it). */
  readonly maxAge?: number;
  /** Hidden from scripts. Default `true`. */
  readonly httpOnly?: boolean;
  /**
   * Sent over HTTPS only (required by `__Secure-`/`__Host-` names, `SameSite=None` and `Partitioned`).
   * `"auto"`: when the request's URL is `https` (behind a trusted proxy, the scheme the client used).
   */
  readonly secure?: boolean | "auto";
  /** Cross-site sending. Default `Lax`. */
  readonly sameSite?: "Strict" | "Lax" | "None";
  /** Partitioned per top-level site (CHIPS); needs `secure`. */
  readonly partitioned?: boolean;
  /** Chrome's eviction priority. */
  readonly priority?: "Low" | "Medium" | "High";
}

const DOMAIN =
  /^\.?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// RFC 6265 path-value: any CHAR but controls and ";".
const PATH = /^\/[\x20-\x3a\x3c-\x7e]*$/;
const SAME_SITE = new Set(["Strict", "Lax", "None"]);
const PRIORITY = new Set(["Low", "Medium", "High"]);

/** Throws unless `name` is a valid cookie name. */
export function checkName(name: string): void {
  if (typeof name !== "string" || !TOKEN.test(name)) {
    throw new TypeError(
      `Invalid cookie name ${JSON.stringify(name)}: use letters, digits and !#$%&'*+-.^_\`|~`,
    );
  }
}

/** One `Set-Cookie` value; the value is percent-encoded, every attribute checked. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  checkName(name);
  const path = options.path ?? "/";
  const sameSite = options.sameSite ?? "Lax";
  const prefixed = name.startsWith("__Secure-") || name.startsWith("__Host-");
  const needsSecure = prefixed || sameSite === "None" || options.partitioned === true;
  if (needsSecure && options.secure === false) {
    throw new TypeError(
      `Cookie ${name}: __Secure-/__Host- names, SameSite=None and Partitioned need secure: true`,
    );
  }
  const secure = options.secure === "auto" ? needsSecure : (options.secure ?? needsSecure);
  if (name.startsWith("__Host-") && (path !== "/" || options.domain !== undefined)) {
    throw new TypeError(`Cookie ${name}: a __Host- cookie needs path "/" and no domain`);
  }
  if (!PATH.test(path)) throw new TypeError(`Cookie ${name}: invalid path ${JSON.stringify(path)}`);
  if (!SAME_SITE.has(sameSite))
    throw new TypeError(`Cookie ${name}: invalid sameSite ${JSON.stringify(sameSite)}`);
  let out = `${name}=${encodeURIComponent(value)}; Path=${path}`;
  if (options.domain !== undefined) {
    if (typeof options.domain !== "string" || options.domain.length > 253 || !DOMAIN.test(options.domain)) {
      throw new TypeError(`Cookie ${name}: invalid domain ${JSON.stringify(options.domain)}`);
    }
    out += `; Domain=${options.domain}`;
  }
  if (options.maxAge !== undefined) {
    if (!Number.isSafeInteger(options.maxAge)) {
      throw new TypeError(`Cookie ${name}: maxAge must be an integer number of seconds`);
    }
    out += `; Max-Age=${options.maxAge}`;
  }
  if (options.expires !== undefined) {
    if (!(options.expires instanceof Date) || Number.isNaN(options.expires.getTime())) {
      throw new TypeError(`Cookie ${name}: expires must be a valid Date`);
    }
    out += `; Expires=${options.expires.toUTCString()}`;
  }
  if (options.httpOnly ?? true) out += "; HttpOnly";
  if (secure) out += "; Secure";
  out += `; SameSite=${sameSite}`;
  if (options.partitioned) out += "; Partitioned";
  if (options.priority !== undefined) {
    if (!PRIORITY.has(options.priority)) {
      throw new TypeError(`Cookie ${name}: invalid priority ${JSON.stringify(options.priority)}`);
    }
    out += `; Priority=${options.priority}`;
  }
  return out;
}
