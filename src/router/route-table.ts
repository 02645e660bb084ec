import { type CompiledPattern, compilePattern, trimTrailingSlashes } from "./compile-pattern.ts";

/** The pseudo-method websocket routes are stored under. */
export const WS_METHOD = "WS";
/** The pseudo-method of `all` routes. */
export const ANY_METHOD = "*";

/** One pattern and what each method does on it. */
interface RouteEntry<TRoute> {
  readonly pattern: CompiledPattern;
  readonly routes: Map<string, TRoute>;
  readonly order: number;
  /** For static patterns: the match per standard method, made once (`null`: no route for it). */
  readonly matches: Map<string, RouteMatch<TRoute> | null>;
}

/** A route found for a request: the route and its raw (still encoded) path parameters. */
export interface RouteMatch<TRoute> {
  readonly route: TRoute;
  readonly params: Record<string, string>;
}

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The routes of an app: fully static patterns in a map; the others in lists ordered by specificity
 * (static segments before parameters before wildcards), then by registration order. Dynamic routes
 * whose first segment is static are bucketed by it, so a request only tries the routes that can match.
 */
export class RouteTable<TRoute> {
  readonly #static = new Map<string, RouteEntry<TRoute>>();
  readonly #dynamic: RouteEntry<TRoute>[] = [];
  /** Per first path segment: the dynamic routes starting with it, merged with those starting with a parameter. */
  readonly #buckets = new Map<string, RouteEntry<TRoute>[]>();
  /** The dynamic routes whose first segment is not static. */
  readonly #generic: RouteEntry<TRoute>[] = [];
  readonly #byPattern = new Map<string, RouteEntry<TRoute>>();
  readonly #shapes = new Set<string>();

  /** Registers a route; throws when the same method and pattern shape is registered twice. */
  add(method: string, pattern: string, route: TRoute): void {
    const compiled = compilePattern(pattern);
    const key = `${method} ${compiled.shape}`;
    if (this.#shapes.has(key)) {
      const verb = method === WS_METHOD ? "websocket" : method === ANY_METHOD ? "ALL" : method;
      throw new Error(`Route ${verb} ${compiled.source} is already registered`);
    }
    this.#shapes.add(key);
    let entry = this.#byPattern.get(compiled.source);
    if (!entry) {
      entry = { pattern: compiled, routes: new Map(), order: this.#byPattern.size, matches: new Map() };
      this.#byPattern.set(compiled.source, entry);
      if (compiled.kind === "static") this.#static.set(compiled.source, entry);
      else this.#addDynamic(entry);
    }
    entry.routes.set(method, route);
    entry.matches.clear();
  }

  /** Finds the route for a method and path; HEAD falls back to GET, any method to `all`. */
  find(method: string, path: string): RouteMatch<TRoute> | undefined {
    const target = trimTrailingSlashes(path);
    const entry = this.#static.get(target);
    if (entry !== undefined) {
      const match = staticMatch(entry, method);
      if (match !== null) return match;
    }
    const slash = target.indexOf("/", 1);
    const candidates =
      this.#buckets.get(slash < 0 ? target.slice(1) : target.slice(1, slash)) ?? this.#generic;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      const route = pick(candidate.routes, method);
      if (route === undefined) continue;
      const params = candidate.pattern.exec(target);
      if (params !== undefined) return { route, params };
    }
    return undefined;
  }

  #addDynamic(entry: RouteEntry<TRoute>): void {
    insertSorted(this.#dynamic, entry);
    const first = firstStaticSegment(entry.pattern.source);
    if (first === undefined) {
      insertSorted(this.#generic, entry);
      for (const bucket of this.#buckets.values()) insertSorted(bucket, entry);
      return;
    }
    let bucket = this.#buckets.get(first);
    if (bucket === undefined) {
      bucket = [...this.#generic];
      this.#buckets.set(first, bucket);
    }
    insertSorted(bucket, entry);
  }

  /** The methods some route accepts for this path (`WS` for websocket routes), in a conventional order. */
  methodsFor(path: string): string[] {
    const target = trimTrailingSlashes(path);
    const methods = new Set<string>();
    const entry = this.#static.get(target);
    if (entry !== undefined) for (const method of entry.routes.keys()) methods.add(method);
    for (const candidate of this.#dynamic) {
      if (candidate.pattern.exec(target) !== undefined)
        for (const method of candidate.routes.keys()) methods.add(method);
    }
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort((a, b) => rankMethod(a) - rankMethod(b) || (a < b ? -1 : 1));
  }
}

// A static route's match needs no work per request: made once per method (standard methods only,
// so that clients cannot grow the cache with made-up ones).
function staticMatch<TRoute>(entry: RouteEntry<TRoute>, method: string): RouteMatch<TRoute> | null {
  let match = entry.matches.get(method);
  if (match === undefined) {
    const route = pick(entry.routes, method);
    match = route === undefined ? null : { route, params: NO_PARAMS };
    if (METHOD_ORDER.includes(method) || method === WS_METHOD) entry.matches.set(method, match);
  }
  return match;
}

function pick<TRoute>(routes: Map<string, TRoute>, method: string): TRoute | undefined {
  return (
    routes.get(method) ??
    (method === "HEAD" ? routes.get("GET") : undefined) ??
    (method === WS_METHOD ? undefined : routes.get(ANY_METHOD))
  );
}

function rankMethod(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index < 0 ? METHOD_ORDER.length : index;
}

// The first segment of a pattern when it is plain text that URLs spell the same way
// (`/users/:id` → `users`), else undefined: such routes are tried for every path.
function firstStaticSegment(pattern: string): string | undefined {
  const slash = pattern.indexOf("/", 1);
  const segment = slash < 0 ? pattern.slice(1) : pattern.slice(1, slash);
  return /^[\w.~-]+$/.test(segment) ? segment : undefined;
}

function insertSorted<TRoute>(list: RouteEntry<TRoute>[], entry: RouteEntry<TRoute>): void {
  let index = list.length;
  while (index > 0 && compareEntries(list[index - 1]!, entry) > 0) index--;
  list.splice(index, 0, entry);
}

function compareEntries<TRoute>(a: RouteEntry<TRoute>, b: RouteEntry<TRoute>): number {
  return compareRank(a.pattern.rank, b.pattern.rank) || a.order - b.order;
}

function compareRank(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
