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
