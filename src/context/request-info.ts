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

  /** Wraps a request; `pathParams` are set by the router. */
  constructor(source: Request, id: string, pathParams: Record<string, string>) {
    this.source = source;
    this.method = source.method;
    // Some runtimes build `url` on each access: read it once.
    const url = source.url;
    this.url = url;
    const scheme = url.indexOf("://");
    let start = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
    if (start < 0) start = url.length;
    const end = pathEnd(url, start);
    this.path = end === start ? "/" : url.slice(start, end);
    if (end === url.length || url.charCodeAt(end) === 35 /* # */) this.query = "";
    else {
      const hash = url.indexOf("#", end + 1);
      this.query = url.slice(end + 1, hash < 0 ? url.length : hash);
    }
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

// Where a (normalised, absolute) URL's path ends: at `?`, `#` or the end. No `new URL()` per request.
function pathEnd(url: string, start: number): number {
  let end = start;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 63 /* ? */ || c === 35 /* # */) return end;
    end++;
  }
  return end;
}
