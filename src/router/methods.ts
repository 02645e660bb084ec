import { TOKEN } from "../wire/contract.ts";

// The method space of the route table: the standard methods in their order, and the two
// pseudo-methods no request can carry (websocket routes, and `all()`).

/**
 * The pseudo-method websocket routes are stored under: not a method token (it holds a space), so no
 * HTTP method, `WS` included, can reach it; only `ws()` and channels register under it.
 */
export const WS_METHOD = " websocket";
/** The pseudo-method of `all` routes. */
export const ANY_METHOD = "*";

/** The standard methods, in the order `Allow` lists them. */
export const METHOD_ORDER: readonly string[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The route for a method: its own, GET's for HEAD, else the `all()` route (never for websockets). */
export function pick<TSlot>(routes: Map<string, TSlot>, method: string): TSlot | undefined {
  return (
    routes.get(method) ??
    (method === "HEAD" ? routes.get("GET") : undefined) ??
    (method === WS_METHOD ? undefined : routes.get(ANY_METHOD))
  );
}

/** Methods in `Allow` order: the standard ones first, then the others alphabetically. */
export function sortMethods(methods: Set<string>): string[] {
  return [...methods].sort((a, b) => rankMethod(a) - rankMethod(b) || (a < b ? -1 : 1));
}

function rankMethod(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index < 0 ? METHOD_ORDER.length : index;
}

/** The methods every route table knows first: the ones browsers and clients send. */
export type StandardMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/**
 * The other methods of IANA's HTTP Method Registry (WebDAV, CalDAV, versioning, `QUERY`…): routed by
 * name like the standard ones.
 */
export type RegisteredMethod =
  | StandardMethod
  | "ACL"
  | "BASELINE-CONTROL"
  | "BIND"
  | "CHECKIN"
  | "CHECKOUT"
  | "CONNECT"
  | "COPY"
  | "LABEL"
  | "LINK"
  | "LOCK"
  | "MERGE"
  | "MKACTIVITY"
  | "MKCALENDAR"
  | "MKCOL"
  | "MKREDIRECTREF"
  | "MKWORKSPACE"
  | "MOVE"
  | "ORDERPATCH"
  | "PROPFIND"
  | "PROPPATCH"
  | "QUERY"
  | "REBIND"
  | "REPORT"
  | "SEARCH"
  | "TRACE"
  | "UNBIND"
  | "UNCHECKOUT"
  | "UNLINK"
  | "UNLOCK"
  | "UPDATE"
  | "UPDATEREDIRECTREF"
  | "VERSION-CONTROL";

/** A method of the app's own, spelled on purpose with {@link customMethod} (the mark exists in types only). */
export type CustomMethod = string & { readonly "~customMethod": true };

/** A method a route answers: a registered one by name, or one of the app's own through {@link customMethod}. */
export type Method = RegisteredMethod | CustomMethod;

// Every registered method but the standard ones, as the keys of a record typed by the union above: the
// compiler refuses a name missing from either, so the type and the run-time check cannot drift.
const OTHER_REGISTERED: Record<Exclude<RegisteredMethod, StandardMethod>, true> = {
  ACL: true,
  "BASELINE-CONTROL": true,
  BIND: true,
  CHECKIN: true,
  CHECKOUT: true,
  CONNECT: true,
  COPY: true,
  LABEL: true,
  LINK: true,
  LOCK: true,
  MERGE: true,
  MKACTIVITY: true,
  MKCALENDAR: true,
  MKCOL: true,
  MKREDIRECTREF: true,
  MKWORKSPACE: true,
  MOVE: true,
  ORDERPATCH: true,
  PROPFIND: true,
  PROPPATCH: true,
  QUERY: true,
  REBIND: true,
  REPORT: true,
  SEARCH: true,
  TRACE: true,
  UNBIND: true,
  UNCHECKOUT: true,
  UNLINK: true,
  UNLOCK: true,
  UPDATE: true,
  UPDATEREDIRECTREF: true,
  "VERSION-CONTROL": true,
};
const REGISTERED: ReadonlySet<string> = new Set([...METHOD_ORDER, ...Object.keys(OTHER_REGISTERED)]);
const customs = new Set<string>();

/**
 * A method of the app's own (not in IANA's registry), spelled on purpose: `app.route(customMethod("PURGE"),
 * "/cache", purge)`, `[customMethod("PURGE"), "/cache", Purge]`. Without it, a method the registry does
 * not know is a type error and a setup error, so that a typo (`"GTE"`) cannot become a route no client calls.
 */
export function customMethod<const TName extends string>(name: TName): TName & CustomMethod {
  if (typeof name !== "string" || !TOKEN.test(name))
    throw new TypeError(`customMethod(): a method is an HTTP token, got ${JSON.stringify(name)}`);
  customs.add(name.toUpperCase());
  return name as TName & CustomMethod;
}

/** The method a route is registered under (upper case), or a setup error saying what is wrong. */
export function routeMethod(method: string): string {
  if (typeof method !== "string" || !TOKEN.test(method))
    throw new TypeError(`Invalid HTTP method ${JSON.stringify(method)}`);
  const upper = method.toUpperCase();
  if (!REGISTERED.has(upper) && !customs.has(upper))
    throw new TypeError(
      `"${method}" is not a registered HTTP method (a typo of ${closest(upper)}?); for a method of your own, write customMethod(${JSON.stringify(method)})`,
    );
  return upper;
}

// The registered method nearest a misspelled one (most letters in common, then the standard ones).
function closest(method: string): string {
  let best = "GET";
  let score = -1;
  for (const known of REGISTERED) {
    let common = 0;
    for (const letter of new Set(method)) if (known.includes(letter)) common++;
    const value =
      common * 10 - Math.abs(known.length - method.length) - (METHOD_ORDER.includes(known) ? 0 : 1);
    if (value > score) {
      best = known;
      score = value;
    }
  }
  return best;
}
