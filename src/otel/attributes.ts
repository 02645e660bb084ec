// What a server span and its metrics say of a request, by OpenTelemetry's stable HTTP semantic
// conventions (https://opentelemetry.io/docs/specs/semconv/http/http-spans/): `http.*`, `url.*`,
// `server.*`, `client.address`, `user_agent.original`, `error.type`.
import type { Context } from "../context/context.ts";
import { isHttpError } from "../errors/http-error.ts";

/** Attributes as the API takes them. */
export type Attributes = Record<string, string | number | boolean>;

/** How `url.query` is recorded: keys with their values replaced, as sent, or not at all. */
export type QueryRecording = "redacted" | "full" | false;

// The methods the conventions name; any other is `_OTHER` (its own spelling in
// `http.request.method_original`), so that made-up methods cannot grow a metric's cardinality.
const KNOWN_METHODS = new Set([
  "CONNECT",
  "DELETE",
  "GET",
  "HEAD",
  "OPTIONS",
  "PATCH",
  "POST",
  "PUT",
  "TRACE",
]);

/** The method as the conventions record it. */
export function methodOf(method: string): string {
  return KNOWN_METHODS.has(method) ? method : "_OTHER";
}

/**
 * The span's name: `METHOD route` where a route matched (its registered pattern, never the request's
 * path: the name must not grow with the paths clients send), else the method alone; `HTTP` for a
 * method the conventions do not name.
 */
export function spanName(ctx: Context<unknown>): string {
  const method = methodOf(ctx.request.method);
  const head = method === "_OTHER" ? "HTTP" : method;
  const route = ctx.route;
  return route === undefined ? head : `${head} ${route.path}`;
}

/** What is known of a request when its span starts (what samplers see). */
export function requestAttributes(ctx: Context<unknown>, query: QueryRecording): Attributes {
  const request = ctx.request;
  const method = methodOf(request.method);
  const url = request.url;
  const colon = url.indexOf(":");
  const attributes: Attributes = {
    "http.request.method": method,
    "url.scheme": url.slice(0, colon),
    "url.path": request.path,
    "portico.request.id": request.id,
  };
  if (method === "_OTHER") attributes["http.request.method_original"] = request.method;
  const route = ctx.route;
  if (route !== undefined) attributes["http.route"] = route.path;
  if (query !== false && request.query !== "") {
    attributes["url.query"] = query === "full" ? request.query : redacted(request.query);
  }
  const authority = url.slice(colon + 3, url.indexOf("/", colon + 3));
  const port = portOf(authority);
  const host = port === undefined ? authority : authority.slice(0, authority.lastIndexOf(":"));
  // An IPv6 literal without its brackets, as the conventions write addresses.
  attributes["server.address"] = host.startsWith("[") ? host.slice(1, -1) : host;
  const scheme = attributes["url.scheme"];
  attributes["server.port"] = port ?? (scheme === "https" ? 443 : 80);
  const ip = request.ip;
  if (ip !== undefined) attributes["client.address"] = ip;
  const agent = request.header("user-agent");
  if (agent !== null) attributes["user_agent.original"] = agent;
  return attributes;
}

// `a=1&token=x` → `a=REDACTED&token=REDACTED`: which parameters came, not what they said (a query may
// carry a token or a signature).
function redacted(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return equals < 0 ? pair : `${pair.slice(0, equals)}=REDACTED`;
    })
    .join("&");
}

function portOf(authority: string): number | undefined {
  // `[::1]:8080`, `example.com:8080`; a bare IPv6 literal has no port.
  const colon = authority.lastIndexOf(":");
  if (colon < 0 || colon < authority.lastIndexOf("]")) return undefined;
  const port = Number(authority.slice(colon + 1));
  return Number.isInteger(port) ? port : undefined;
}

/**
 * `error.type` of a finished request: a declared error's key (`UserNotFound`, the `name` the typed
 * client gives it), an unexpected error's class (`TypeError`), or, for a 5xx without an error, the
 * status; nothing for a success or a 4xx answered without an error.
 */
export function errorType(error: unknown, status: number): string | undefined {
  if (error !== undefined) {
    if (isHttpError(error)) return error.name;
    if (error instanceof Error) return error.constructor.name || error.name;
    return "_OTHER";
  }
  return status >= 500 ? String(status) : undefined;
}
