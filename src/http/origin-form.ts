// The target of a request a server adapter made from its parts (Node's `incoming.url`: the origin form
// `/path?query`, the connection's scheme, the Host header): checked as `checkTarget` checks the URL
// `<scheme>://<host><target>`, without making that string, which is made only if the URL is read.
import { isKnownHost, isStandardMethod, plainEnd, type RequestTarget } from "./request-target.ts";

/**
 * An origin-form target (`/path?query`, as a server's parser hands it over) of an ordinary request,
 * checked as {@link checkTarget} checks `<scheme>://<host><target>`, without making that URL: it is
 * made when the target's `url` is read. `undefined` for anything else (then check the whole URL).
 */
export function checkOriginForm(
  scheme: "http" | "https",
  host: string | null,
  target: string,
  method: string,
): RequestTarget | undefined {
  if (host === null || target.charCodeAt(0) !== 47 || !isStandardMethod(method) || !isKnownHost(host))
    return undefined;
  const end = plainEnd(target, 0);
  if (end < 0) return undefined;
  const path = end === target.length ? target : target.slice(0, end);
  const query = end < target.length ? target.slice(end + 1) : "";
  return new OriginTarget(scheme, host, target, path, query, method === "OPTIONS" && path === "/*");
}

// A checked origin-form target: its URL made on first read.
class OriginTarget implements RequestTarget {
  readonly path: string;
  readonly query: string;
  readonly rewritten = false;
  readonly asterisk: boolean;
  readonly #scheme: string;
  readonly #host: string;
  readonly #target: string;
  #url: string | undefined = undefined;

  constructor(scheme: string, host: string, target: string, path: string, query: string, asterisk: boolean) {
    this.#scheme = scheme;
    this.asterisk = asterisk;
    this.#host = host;
    this.#target = target;
    this.path = path;
    this.query = query;
  }

  get url(): string {
    this.#url ??= `${this.#scheme}://${this.#host}${this.#target}`;
    return this.#url;
  }
}
