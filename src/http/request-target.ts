// One check of what a request asks for, shared by every adapter and by `app.fetch` itself (so it also
// holds for `export default app` and `Deno.serve(app.fetch)`): Node's parser refuses what RFC 9110 and
// 9112 call invalid, while Deno and Bun hand over targets with raw dot segments, backslashes, an
// absolute-form host, a Host with a path or a port of 99999, or a lower-case method. Portico answers all
// of them the same way, before routing.

/** Where a request goes, once checked: its URL (as Portico reports it), path and query. */
export interface RequestTarget {
  /** The absolute URL, with the Host's authority and the normalised path. */
  readonly url: string;
  /** The path, still percent-encoded, dot segments removed, `\` read as `/`. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  /** True when `url` differs from the one the runtime gave (its request then reports another URL). */
  readonly rewritten: boolean;
  /** True for `OPTIONS *`, a question about the server rather than a resource. */
  readonly asterisk: boolean;
}

const HTTP_SCHEME = /^https?$/i;
// A token without lower case: method names are case-sensitive and registered in upper case.
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Z-]+$/;
// reg-name (RFC 3986, as DNS uses it), IPv4, or [IPv6], then an optional port.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/**
 * Checks a request's method, Host (the header, or the URL's authority without one) and target.
 * Returns the target, or the reason to answer 400. One pass over the URL, and no allocation beyond
 * the path, the query and the result for an ordinary request. `scheme`, when the server knows the
 * connection's, replaces the one in the URL (which an absolute-form target may have chosen).
 */
export function checkTarget(
  url: string,
  host: string | null,
  method: string,
  scheme?: "http" | "https",
): RequestTarget | string {
  return ordinaryTarget(url, host, method, scheme) ?? anyTarget(url, host, method, scheme);
}

// What an ordinary request asks for — a standard method, a lower-case http(s) URL on a Host already
// found valid, a path and query of plain ASCII without dot segments — is taken as it is, in one pass
// through a table of characters. For `http://127.0.0.1:3000/` the whole check went from 203 to 80 ns
// on Bun, 170–240 to 60 on Deno and 135 to 110 on Node 20 (whose `startsWith` is not inlined: it
// is only used where the other engines gain most from it). Anything else (`undefined`) goes to
// `anyTarget`, which answers every target; both give the same answer where both answer
// (tests/properties/parsers.property.test.ts). Exported for the tests that hold ordinary requests to it.
export function ordinaryTarget(
  url: string,
  host: string | null,
  method: string,
  scheme: "http" | "https" | undefined,
): RequestTarget | undefined {
  const schemeLength = httpSchemeLength(url);
  if (
    schemeLength === 0 ||
    (scheme !== undefined && scheme.length !== schemeLength) ||
    !isStandardMethod(method)
  ) {
    return undefined;
  }
  const authorityStart = schemeLength + 3;
  const pathStart = url.indexOf("/", authorityStart);
  if (pathStart < 0) return undefined;
  if (host === null) {
    if (!isKnownHost(url.slice(authorityStart, pathStart))) return undefined;
  } else if (
    pathStart - authorityStart !== host.length ||
    !url.startsWith(host, authorityStart) ||
    !isKnownHost(host)
  ) {
    return undefined;
  }
  const end = plainEnd(url, pathStart);
  if (end < 0) return undefined;
  const path = url.slice(pathStart, end);
  const query = end < url.length ? url.slice(end + 1) : "";
  return { url, path, query, rewritten: false, asterisk: method === "OPTIONS" && path === "/*" };
}

/**
 * Where a path of plain ASCII without dot segments ends (at `?` or the end of `text`), its query being
 * plain too; -1 for anything else.
 */
export function plainEnd(text: string, pathStart: number): number {
  const length = text.length;
  let end = pathStart;
  for (; end < length; end++) {
    const c = text.charCodeAt(end);
    const kind = c < 128 ? PATH_CHARACTERS[c]! : OTHER;
    if (kind === PLAIN) continue;
    if (kind === QUESTION) break;
    if (kind !== SLASH) return -1;
    const next = text.charCodeAt(end + 1);
    if (next === 46 /* . */ || next === 37 /* % */) return -1;
  }
  for (let i = end + 1; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 35 /* # */) return -1;
  }
  return end;
}

// 4 for `http://`, 5 for `https://`, else 0. (V8 does not inline `startsWith`: 30–60 ns a call.)
function httpSchemeLength(url: string): number {
  if (
    url.charCodeAt(0) !== 104 /* h */ ||
    url.charCodeAt(1) !== 116 /* t */ ||
    url.charCodeAt(2) !== 116 /* t */ ||
    url.charCodeAt(3) !== 112 /* p */
  ) {
    return 0;
  }
  const length = url.charCodeAt(4) === 115 /* s */ ? 5 : 4;
  return url.charCodeAt(length) === 58 /* : */ &&
    url.charCodeAt(length + 1) === 47 &&
    url.charCodeAt(length + 2) === 47
    ? length
    : 0;
}

/** Whether a method is one of the seven every server knows (a switch, not a Set: JavaScriptCore's `Set.has` cost 20–40 ns here, the comparisons a few). */
export function isStandardMethod(method: string): boolean {
  switch (method) {
    case "GET":
    case "POST":
    case "HEAD":
    case "PUT":
    case "PATCH":
    case "DELETE":
    case "OPTIONS":
      return true;
    default:
      return false;
  }
}

const OTHER = 0;
const PLAIN = 1;
const SLASH = 2;
const QUESTION = 3;
// Printable ASCII a path may hold as it is; `/` and `?` marked; the rest (and `#`) is OTHER.
const PATH_CHARACTERS = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) PATH_CHARACTERS[c] = PLAIN;
for (const c of '"#<>\\`{}') PATH_CHARACTERS[c.charCodeAt(0)] = OTHER;
PATH_CHARACTERS[47] = SLASH;
PATH_CHARACTERS[63] = QUESTION;

/** Any target: {@link checkTarget} without its fast path (exported for the test comparing the two). */
export function anyTarget(
  url: string,
  host: string | null,
  method: string,
  scheme?: "http" | "https",
): RequestTarget | string {
  if (!isStandardMethod(method) && !METHOD.test(method)) {
    return `Invalid method "${method.slice(0, 32)}": methods are case-sensitive upper-case tokens`;
  }
  const schemeEnd = url.indexOf("://");
  if (schemeEnd < 0) return "Invalid request target";
  // Only http and https are served (an absolute-form `file:///…` or `ftp://…` target is not).
  if (!(schemeEnd === 4 || schemeEnd === 5) || !HTTP_SCHEME.test(url.slice(0, schemeEnd))) {
    return "Invalid request target: only http and https URLs are served";
  }
  const authorityStart = schemeEnd + 3;
  let pathStart = authorityStart;
  while (pathStart < url.length) {
    const c = url.charCodeAt(pathStart);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    pathStart++;
  }
  const sameAuthority =
    host === null ||
    (pathStart - authorityStart === host.length &&
      (url.startsWith(host, authorityStart) ||
        url.slice(authorityStart, pathStart).toLowerCase() === host.toLowerCase()));
  const effectiveHost = host ?? url.slice(authorityStart, pathStart);
  if (!isValidHost(effectiveHost)) {
    return `Invalid Host "${effectiveHost.slice(0, 64)}": expected host[:port] with a port up to 65535`;
  }
  // The path: to `?`, `#` or the end; plain ASCII without dot segments is taken as it is.
  let end = pathStart;
  let simple = url.charCodeAt(pathStart) === 47;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 63 /* ? */ || c === 35 /* # */) break;
    if (c <= 0x20 || c >= 0x7f) return INVALID_CHARACTERS;
    if (c === 92 /* \ */ || c === 34 || c === 60 || c === 62 || c === 96 || c === 123 || c === 125)
      simple = false;
    else if (c === 47 /* / */ && simple && isDotSegmentAt(url, end + 1)) simple = false;
  }
  let query = "";
  if (url.charCodeAt(end) === 63) {
    let queryEnd = end + 1;
    for (; queryEnd < url.length; queryEnd++) {
      const c = url.charCodeAt(queryEnd);
      if (c === 35 /* # */) break;
      if (c <= 0x20 || c >= 0x7f) return INVALID_CHARACTERS;
    }
    query = url.slice(end + 1, queryEnd);
  }
  const path = simple
    ? url.slice(pathStart, end)
    : // Appended to an origin, not resolved against a base: `//host/..` stays a path.
      new URL(`http://portico.invalid/${url.slice(pathStart, end).replace(/^\//, "")}`).pathname;
  const sameScheme = scheme === undefined || (schemeEnd === scheme.length && url.startsWith(scheme));
  const rewritten = !simple || !sameAuthority || !sameScheme;
  return {
    url: rewritten
      ? `${scheme ?? url.slice(0, schemeEnd)}://${effectiveHost.toLowerCase()}${path}${query === "" ? "" : `?${query}`}`
      : url,
    path,
    query,
    rewritten,
    asterisk: method === "OPTIONS" && path === "/*",
  };
}

const INVALID_CHARACTERS = "Invalid request target: characters that must be percent-encoded";

// A server sees the same few Hosts again and again: those already found valid skip the regexp. The
// last one is compared first: each request's Host is a new string, whose hash `Set.has` computes
// (45 of 50 ns on Node 20, the most of the fast path's cost there), where `===` compares a few bytes.
const validHosts = new Set<string>();
let lastValidHost: string | undefined;

/** Whether a Host was already found valid (the last one compared first). */
export function isKnownHost(host: string): boolean {
  if (host === lastValidHost) return true;
  if (!validHosts.has(host)) return false;
  lastValidHost = host;
  return true;
}

function isValidHost(host: string): boolean {
  if (isKnownHost(host)) return true;
  const match = HOST.exec(host);
  if (match === null || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  if (validHosts.size >= 64) validHosts.clear();
  validHosts.add(host);
  lastValidHost = host;
  return true;
}

/** True for a valid Host value (`host[:port]`: a DNS name, IPv4 or `[IPv6]`, port at most 65535). */
export function isHost(host: string): boolean {
  const match = HOST.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

// `.`, `..`, `%2e`, `.%2E`… as a whole segment starting at `index`.
function isDotSegmentAt(target: string, index: number): boolean {
  let i = index;
  let dots = 0;
  while (dots < 3) {
    if (target.charCodeAt(i) === 46) i += 1;
    else if (
      target.charCodeAt(i) === 37 &&
      target.charCodeAt(i + 1) === 50 &&
      (target.charCodeAt(i + 2) | 0x20) === 101
    )
      i += 3;
    else break;
    dots++;
  }
  if (dots === 0 || dots === 3) return false;
  const next = target.charCodeAt(i);
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35 || next === 92;
}
