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

const STANDARD_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
// A token without lower case: method names are case-sensitive and registered in upper case.
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Z-]+$/;
// reg-name (RFC 3986, as DNS uses it), IPv4, or [IPv6], then an optional port.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/**
 * Checks a request's method, Host (the header, or the URL's authority without one) and target.
 * Returns the target, or the reason to answer 400.
 */
export function checkTarget(url: string, host: string | null, method: string): RequestTarget | string {
  if (!STANDARD_METHODS.has(method) && !METHOD.test(method)) {
    return `Invalid method "${method.slice(0, 32)}": methods are case-sensitive upper-case tokens`;
  }
  const schemeEnd = url.indexOf("://");
  if (schemeEnd < 0) return "Invalid request target";
  const authorityStart = schemeEnd + 3;
  let pathStart = authorityStart;
  while (pathStart < url.length && !"/?#".includes(url[pathStart]!)) pathStart++;
  const authority = url.slice(authorityStart, pathStart);
  const effectiveHost = host ?? authority;
  const port = HOST.exec(effectiveHost);
  if (port === null || (port[1] !== undefined && Number(port[1]) > 65535)) {
    return `Invalid Host "${effectiveHost.slice(0, 64)}": expected host[:port] with a port up to 65535`;
  }
  const rest =
    pathStart === url.length || url[pathStart] !== "/" ? `/${url.slice(pathStart)}` : url.slice(pathStart);
  const split = splitTarget(rest);
  if (typeof split === "string") return split;
  const [path, query, normalised] = split;
  const sameAuthority =
    authority === effectiveHost || authority.toLowerCase() === effectiveHost.toLowerCase();
  const rewritten = normalised || !sameAuthority;
  return {
    url: rewritten
      ? `${url.slice(0, authorityStart)}${effectiveHost.toLowerCase()}${path}${query === "" ? "" : `?${query}`}`
      : url,
    path,
    query,
    rewritten,
    asterisk: method === "OPTIONS" && path === "/*",
  };
}

// The path and query of an origin-form target. A path made of characters the URL parser leaves as
// they are, with no dot segment, is already normalised; anything else goes through the URL parser
// (RFC 3986 §5.2.4 dot-segment removal, `\` as `/`, percent-encoding of `"<>{}\``), once.
function splitTarget(target: string): [path: string, query: string, normalised: boolean] | string {
  let end = 0;
  let simple = true;
  for (; end < target.length; end++) {
    const c = target.charCodeAt(end);
    if (c === 63 /* ? */ || c === 35 /* # */) break;
    if (c <= 0x20 || c >= 0x7f) return "Invalid request target: characters that must be percent-encoded";
    if (c === 92 /* \ */ || c === 34 || c === 60 || c === 62 || c === 96 || c === 123 || c === 125)
      simple = false;
    else if (c === 47 /* / */ && simple && isDotSegmentAt(target, end + 1)) simple = false;
  }
  let query = "";
  if (target.charCodeAt(end) === 63) {
    const hash = target.indexOf("#", end + 1);
    query = target.slice(end + 1, hash < 0 ? target.length : hash);
    for (let i = 0; i < query.length; i++) {
      const c = query.charCodeAt(i);
      if (c <= 0x20 || c >= 0x7f) return "Invalid request target: characters that must be percent-encoded";
    }
  }
  if (simple) return [target.slice(0, end), query, false];
  // Appended to an origin, not resolved against a base: `//host/..` stays a path.
  return [new URL(`http://portico.invalid${target.slice(0, end)}`).pathname, query, true];
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
