import { headerOf, toStandardRequest } from "../fast-path/fast-path.ts";
import type { ForwardedOrigin } from "../http/ip.ts";
import type { RequestTarget } from "../http/request-target.ts";
import { NO_RUNTIME, type Runtime } from "../runtime/runtime.ts";
import type { Dictionary } from "./dictionary.ts";

/**
 * How the app finds who made a request from the peer's address: the client's address (what trusted
 * proxies say, else the peer) and, behind trusted proxies, the scheme and Host the client used.
 */
export interface ClientLookup {
  /** The client's address. */
  address(request: Request, peer: string | undefined): string | undefined;
  /** The scheme and Host trusted proxies tell (only with `trustProxy`). */
  readonly origin?: ((request: Request, peer: string | undefined) => ForwardedOrigin | undefined) | undefined;
  /** Whether a peer is one of the trusted proxies (only with `trustProxy`). */
  readonly trusts?: ((peer: string) => boolean) | undefined;
}

/** The route a request matched, as `app.routes()` lists it: `ctx.route`. */
export interface MatchedRoute {
  /** `GET`, `POST`, …; `ALL` for `all()`, `WS` for a websocket route. */
  readonly method: string;
  /** The full path pattern, prefixes included (`/api/users/:id`): never the request's own path. */
  readonly path: string;
  /** The route's name, when it has one (`defineRoutes` keys, `route(…, { name })`). */
  readonly name?: string;
}

// What routing found for a request: its parameters' source, and the route's listing (when it is one).
type RoutedMatch = {
  readonly params: Record<string, string>;
  readonly route: { readonly matched?: MatchedRoute | undefined };
};

/** The request as a handler sees it: the standard `Request` plus what routing found. */
export class RequestInfo {
  /** The object the runtime handed to `fetch` (a stand-in on the Node adapter). */
  readonly source: Request;
  /** The method (an upper-case token). */
  readonly method: string;
  /** The path, still percent-encoded, without the query (dot segments removed). */
  readonly path: string;
  /** The raw query string, without `?` (empty when there is none). */
  readonly query: string;
  /** What the runtime serving this request can do (`ctx.runtime`). */
  readonly runtime: Runtime;
  /** The request's unique id, sent back as `X-Request-Id`. */
  readonly id: string;

  readonly #rewritten: boolean;
  readonly #lookup: ClientLookup | undefined;
  // The URL, or `undefined` until asked for (behind trusted proxies, their headers are read then; on
  // the Node adapter, the URL is made then).
  #url: string | undefined;
  readonly #target: RequestTarget;
  readonly #env: unknown;
  #raw: Request | undefined = undefined;
  #ip: string | undefined | null = null;
  #headers: Headers | undefined = undefined;
  // The headers as one string of `name: value` lines, kept by `settle` where the runtime lets go of
  // the request.
  #kept: string | undefined = undefined;
  #pathParams: Dictionary<string> | undefined;
  #match: RoutedMatch | undefined = undefined;

  /** Wraps a request whose target was checked; `pathParams` are set by the router. */
  constructor(
    source: Request,
    target: RequestTarget,
    id: string,
    pathParams: Dictionary<string>,
    lookup?: ClientLookup,
    runtime: Runtime = NO_RUNTIME,
    env?: unknown,
  ) {
    this.source = source;
    this.method = source.method;
    this.#target = target;
    this.#url = undefined;
    this.path = target.path;
    this.query = target.query;
    this.id = id;
    this.#pathParams = pathParams;
    this.#rewritten = target.rewritten;
    this.#lookup = lookup;
    this.runtime = runtime;
    this.#env = env;
  }

  /**
   * The absolute URL: the validated Host's authority, the normalised path, the query. Behind a trusted
   * proxy (`trustProxy`), the public one: the scheme and Host the client used, from `X-Forwarded-Proto`/
   * `X-Forwarded-Host` or `Forwarded`, read only when the peer is one of the trusted proxies.
   */
  get url(): string {
    this.#url ??= this.#lookup?.origin === undefined ? this.#target.url : this.#publicUrl();
    return this.#url;
  }

  #publicUrl(): string {
    const url = this.#target.url;
    const told = this.#lookup?.origin?.(this.source, this.runtime.peer(this.source, this.#env));
    if (told === undefined || (told.scheme === undefined && told.host === undefined)) return url;
    const authority = url.indexOf("//") + 2;
    const pathAt = url.indexOf("/", authority);
    const scheme = told.scheme ?? url.slice(0, authority - 3);
    const host = told.host ?? url.slice(authority, pathAt < 0 ? url.length : pathAt);
    return `${scheme}://${host}${pathAt < 0 ? "/" : url.slice(pathAt)}`;
  }

  /** The path parameters, percent-decoded (an object with no inherited keys). */
  get pathParams(): Record<string, string> {
    if (this.#pathParams === undefined) this.#pathParams = this.#match!.params;
    return this.#pathParams;
  }

  set pathParams(params: Record<string, string>) {
    this.#pathParams = params;
  }

  /**
   * Takes the match of the request's route (the core calls it): its parameters are read from it when
   * first asked for (router/route-match.ts makes them then).
   */
  routed(match: {
    readonly params: Record<string, string>;
    readonly route: { readonly matched?: MatchedRoute | undefined };
  }): void {
    this.#match = match;
    this.#pathParams = undefined;
  }

  /** The listing of the route the request matched (`ctx.route`), or `undefined`. */
  get matchedRoute(): MatchedRoute | undefined {
    return this.#match?.route.matched;
  }

  /**
   * Keeps what the request says readable after the runtime lets go of its request: Deno closes it with
   * a websocket handshake, and its headers and peer address throw from then on (while a streamed body
   * goes, they stay readable). Called by the core before the handshake; the headers are copied once,
   * the address found.
   */
  settle(): void {
    void this.ip;
    if (
      this.#headers !== undefined ||
      this.#kept !== undefined ||
      this.runtime.releasesUpgradedRequest !== true
    ) {
      return;
    }
    // One string, not a `Headers` (2.2 KiB per socket on Deno): most sockets never read them again.
    // A value has no line break (the runtime refused it), and a name no colon.
    const lines: string[] = [];
    for (const [name, value] of this.source.headers) lines.push(`${name}:${value}`);
    this.#kept = lines.join("\n");
  }

  /**
   * The client's IP address: the connection's peer (Node's socket, Bun's `requestIP`, Deno's
   * `remoteAddr`, Workers' `CF-Connecting-IP`), or, when the peer is one of the app's `trustProxy`
   * addresses, the first untrusted hop of `X-Forwarded-For`/`Forwarded`. IPv4-mapped IPv6 reads as
   * IPv4. `undefined` when nothing tells it (`app.request()` in tests).
   */
  get ip(): string | undefined {
    if (this.#ip === null) {
      const lookup = this.#lookup;
      this.#ip =
        lookup === undefined
          ? undefined
          : lookup.address(this.source, this.runtime.peer(this.source, this.#env));
    }
    return this.#ip;
  }

  /**
   * True when the connection's peer is one of the app's `trustProxy` addresses: what such a peer says
   * of the request (its forwarded headers, a trace context) may be believed. False without `trustProxy`
   * and when the peer is unknown.
   */
  get fromTrustedProxy(): boolean {
    const trusts = this.#lookup?.trusts;
    if (trusts === undefined) return false;
    const peer = this.runtime.peer(this.source, this.#env);
    return peer !== undefined && trusts(peer);
  }

  /**
   * The standard `Request`: the runtime's own, or, when Portico corrected its URL (a runtime that
   * kept dot segments or took the host from an absolute-form target), a copy with the URL above.
   */
  get raw(): Request {
    if (this.#raw === undefined) {
      const standard = toStandardRequest(this.source);
      this.#raw = this.#rewritten ? new Request(this.#target.url, standard) : standard;
    }
    return this.#raw;
  }

  /**
   * One request header (any case; several joined by `, `), or `null`: from the adapter's own request
   * where it can, without building all of `headers`.
   */
  header(name: string): string | null {
    if (this.#headers === undefined && this.#kept === undefined)
      return headerOf(this.source, name.toLowerCase());
    return this.headers.get(name);
  }

  /** The request headers. */
  get headers(): Headers {
    if (this.#headers !== undefined) return this.#headers;
    const kept = this.#kept;
    if (kept === undefined) return this.source.headers;
    const headers = new Headers();
    for (const line of kept.split("\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.append(line.slice(0, colon), line.slice(colon + 1));
    }
    this.#headers = headers;
    return headers;
  }
}
