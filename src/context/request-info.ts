/** The symbol under which a stand-in request offers its standard `Request` (see {@link toStandardRequest}). */
export const standardRequestKey: unique symbol = Symbol.for("portico.standard-request");

/**
 * Returns the standard `Request` behind a request-like object. A server adapter may hand `fetch` a
 * cheaper stand-in that builds the real `Request` only when asked, through this symbol.
 */
export function toStandardRequest(request: Request): Request {
  const build = (request as { [standardRequestKey]?: () => Request })[standardRequestKey];
  return build === undefined ? request : build.call(request);
}

/** The request as a handler sees it: the standard `Request` plus what routing found. */
export class RequestInfo {
  /** The object the runtime handed to `fetch` (a stand-in on the Node adapter). */
  readonly source: Request;
  /** The method, upper case. */
  readonly method: string;
  /** The full URL, as the runtime gave it. */
  readonly url: string;
  /** The path, still percent-encoded, without the query. */
  readonly path: string;
  /** The raw query string, without `?` (empty when there is none). */
  readonly query: string;
  /** The request's unique id, sent back as `X-Request-Id`. */
  readonly id: string;
  /** The path parameters, percent-decoded. */
  pathParams: Record<string, string>;

  #raw: Request | undefined = undefined;

  constructor(source: Request, id: string, pathParams: Record<string, string>) {
    this.source = source;
    this.method = source.method;
    // Some runtimes build `url` on each access: read it once.
    const url = source.url;
    this.url = url;
    const { path, query } = splitUrl(url);
    this.path = path;
    this.query = query;
    this.id = id;
    this.pathParams = pathParams;
  }

  /** The standard `Request`. */
  get raw(): Request {
    this.#raw ??= toStandardRequest(this.source);
    return this.#raw;
  }

  /** The request headers. */
  get headers(): Headers {
    return this.source.headers;
  }
}

/** A URL's path and query, found without parsing the URL again. */
export interface RequestTarget {
  readonly path: string;
  readonly query: string;
}

/**
 * Splits an absolute URL (as serialised by `Request`, so already normalised) into path and query,
 * without `new URL()`.
 */
export function splitUrl(url: string): RequestTarget {
  const scheme = url.indexOf("://");
  let start = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
  if (start < 0) start = url.length;
  let end = start;
  const length = url.length;
  while (end < length) {
    const c = url.charCodeAt(end);
    if (c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  const path = end === start ? "/" : url.slice(start, end);
  if (end === length || url.charCodeAt(end) === 35) return { path, query: "" };
  const hash = url.indexOf("#", end + 1);
  return { path, query: url.slice(end + 1, hash < 0 ? length : hash) };
}
