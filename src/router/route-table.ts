import { type Dictionary, dictionary } from "../context/dictionary.ts";
import { type Alternation, type AlternationOption, alternation, matchedOption } from "./alternation.ts";
import type { CompiledPattern } from "./compile-pattern.ts";
import { ANY_METHOD, METHOD_ORDER, pick, sortMethods, WS_METHOD } from "./methods.ts";
import { DynamicMatch, type RouteMatch } from "./route-match.ts";

export { ANY_METHOD, WS_METHOD } from "./methods.ts";
export type { RouteMatch } from "./route-match.ts";

/** One route on a pattern: what runs, and the parameter names as that route's pattern spells them. */
interface Slot<TRoute> {
  readonly route: TRoute;
  readonly pattern: CompiledPattern;
}

/** One pattern shape and what each method does on it. */
interface PatternEntry<TRoute> {
  /** The regexp, shared by every method's pattern of this shape. */
  readonly regexp: RegExp | undefined;
  readonly rank: readonly number[];
  readonly routes: Map<string, Slot<TRoute>>;
  readonly order: number;
  /** For static patterns: the match per standard method, made once (`null`: no route for it). */
  readonly matches: Map<string, RouteMatch<TRoute> | null>;
  /** Its first segment, when that is static text. */
  readonly first: string | undefined;
}

/** The dynamic routes a path whose first segment is `segment` may match, in order, and their regexps joined. */
interface Bucket<TRoute> {
  readonly segment: string;
  readonly entries: PatternEntry<TRoute>[];
  /** Per method (`null`: none reachable, or not joinable: the routes are tried one by one). */
  readonly joined: Map<string, Alternation<Slot<TRoute>> | null>;
}

const NO_PARAMS: Dictionary<string> = Object.freeze(dictionary<string>());

/**
 * The routes of an app: static patterns in a map; the others, each one regexp, in lists ordered by
 * specificity (per segment: static, parameter, optional, wildcard), then by registration order.
 * Dynamic routes whose first segment is static text are bucketed by it, so a request only tries
 * the routes that can match. Trailing slashes are ignored: `/users/42/` is `/users/42`.
 */
export class RouteTable<TRoute> {
  readonly #static = new Map<string, PatternEntry<TRoute>>();
  readonly #dynamic: PatternEntry<TRoute>[] = [];
  /** Per first path segment: the dynamic routes starting with it, merged with those that start otherwise. */
  readonly #buckets = new Map<string, Bucket<TRoute>>();
  /** The same buckets by a number made of the segment's first character and length (see #bucketAt). */
  readonly #bucketsByKey = new Map<number, Bucket<TRoute>[]>();
  /** The dynamic routes whose first segment is not static text. */
  readonly #generic: Bucket<TRoute> = { segment: "", entries: [], joined: new Map() };
  readonly #byShape = new Map<string, PatternEntry<TRoute>>();
  readonly #maxParamLength: number;

  constructor(maxParamLength: number) {
    this.#maxParamLength = maxParamLength;
  }

  /** Registers a route on a compiled pattern; throws when the same method and pattern shape is registered twice. */
  add(method: string, compiled: CompiledPattern, route: TRoute): void {
    const pattern = compiled.pattern;
    let entry = this.#byShape.get(compiled.shape);
    const existing = entry?.routes.get(method);
    if (existing !== undefined) {
      const verb = method === WS_METHOD ? "websocket" : method === ANY_METHOD ? "ALL" : method;
      const first = existing.pattern.pattern;
      throw new Error(
        `Route ${verb} ${pattern} is already registered${first === pattern ? "" : ` as ${first}`}`,
      );
    }
    if (!entry) {
      entry = {
        regexp: compiled.regexp,
        rank: compiled.rank,
        routes: new Map(),
        order: this.#byShape.size,
        matches: new Map(),
        first: compiled.firstSegment,
      };
      this.#byShape.set(compiled.shape, entry);
      if (compiled.staticPath !== undefined) this.#static.set(flat(compiled.staticPath), entry);
      else this.#addDynamic(entry);
    }
    entry.routes.set(method, { route, pattern: compiled });
    entry.matches.clear();
    // A joined regexp holds the routes a method reached when it was made.
    if (entry.regexp !== undefined) {
      this.#generic.joined.clear();
      for (const bucket of this.#buckets.values()) bucket.joined.clear();
    }
  }

  /**
   * Finds the route for a method and path (as the URL parser serialises it); HEAD falls back to GET,
   * any method to `all`. Throws a `PathParamsError` for a parameter that is too long or badly encoded.
   */
  find(method: string, path: string): RouteMatch<TRoute> | undefined {
    const trimmed = trimTrailingSlashes(path);
    const entry = this.#static.get(trimmed === "" ? "/" : trimmed);
    if (entry !== undefined) {
      const match = staticMatch(entry, method);
      if (match !== null) return match;
    }
    const slash = trimmed.indexOf("/", 1);
    const bucket = this.#bucketAt(trimmed, slash < 0 ? trimmed.length : slash);
    // A path with trailing slashes is tried twice per route (see execTrimmed): only the loop does that.
    const joined = trimmed.length === path.length ? joinedFor(bucket, method) : null;
    if (joined !== null) {
      const found = joined.regexp.exec(path);
      if (found === null) return undefined;
      const option = matchedOption(joined, found);
      const slot = joined.slots[option]!;
      return new DynamicMatch(
        slot.route,
        slot.pattern.names,
        found,
        joined.start[option]!,
        this.#maxParamLength,
      );
    }
    const candidates = bucket.entries;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      const slot = pick(candidate.routes, method);
      if (slot === undefined) continue;
      const found = execTrimmed(candidate.regexp!, trimmed, path);
      if (found !== null)
        return new DynamicMatch(slot.route, slot.pattern.names, found, 1, this.#maxParamLength);
    }
    return undefined;
  }

  /** Every method some route accepts, in a conventional order. */
  methods(): string[] {
    const methods = new Set<string>();
    for (const entry of this.#byShape.values()) for (const method of entry.routes.keys()) methods.add(method);
    if (methods.has("GET")) methods.add("HEAD");
    return sortMethods(methods);
  }

  /** The methods some route accepts for this path (`WS` for websocket routes), in a conventional order. */
  methodsFor(path: string): string[] {
    const trimmed = trimTrailingSlashes(path);
    const methods = new Set<string>();
    const entry = this.#static.get(trimmed === "" ? "/" : trimmed);
    if (entry !== undefined) for (const method of entry.routes.keys()) methods.add(method);
    for (const candidate of this.#dynamic) {
      if (execTrimmed(candidate.regexp!, trimmed, path) !== null)
        for (const method of candidate.routes.keys()) methods.add(method);
    }
    if (methods.has("GET")) methods.add("HEAD");
    return sortMethods(methods);
  }

  // Each bucket is ordered on its own (by insertion, see insertSorted), so that routes of other first
  // segments never change the order of a path's candidates.
  #addDynamic(entry: PatternEntry<TRoute>): void {
    insertSorted(this.#dynamic, entry);
    const first = entry.first;
    if (first === undefined) {
      insertSorted(this.#generic.entries, entry);
      for (const bucket of this.#buckets.values()) insertSorted(bucket.entries, entry);
      return;
    }
    let bucket = this.#buckets.get(first);
    if (bucket === undefined) {
      bucket = { segment: first, entries: [...this.#generic.entries], joined: new Map() };
      this.#buckets.set(first, bucket);
      const key = bucketKey(first, 0, first.length);
      this.#bucketsByKey.set(key, [...(this.#bucketsByKey.get(key) ?? []), bucket]);
    }
    insertSorted(bucket.entries, entry);
  }

  // The bucket of a path whose first segment ends at `end`, found without cutting the segment out (a
  // new string to hash: ~23 ns on Node 20), by a number, then the text compared in place. With the
  // joined regexp (alternation.ts), dynamic routes went (mitata, ns per match, bench/router.ts; Node 20,
  // Bun, Deno) from 104, 114, 105 to 97, 93, 89 for one parameter; 143, 137, 152 to 114, 103, 111 for
  // static text after it; 125, 137, 124 to 95, 100, 96 for a POST. What is left is the regexp's own
  // `exec` (~30 ns for one route, ~60 for a joined one); the parameters' object is made when first
  // read (route-match.ts).
  #bucketAt(path: string, end: number): Bucket<TRoute> {
    const candidates = this.#bucketsByKey.get(bucketKey(path, 1, end));
    if (candidates !== undefined) {
      for (let i = 0; i < candidates.length; i++) {
        const bucket = candidates[i]!;
        if (path.indexOf(bucket.segment, 1) === 1) return bucket;
      }
    }
    return this.#generic;
  }
}

/** Strips trailing slashes (the root becomes the empty string). */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

// The path without its trailing slashes first; then, for a path that had some, with one (so that
// `/files/*` matches `/files/`, as URLPattern says, while `/users/:id` still matches `/users/42/`).
function execTrimmed(regexp: RegExp, trimmed: string, path: string): RegExpExecArray | null {
  return regexp.exec(trimmed) ?? (trimmed.length === path.length ? null : regexp.exec(`${trimmed}/`));
}

// A static route's match needs no work per request: made once per method (standard methods only,
// so that clients cannot grow the cache with made-up ones).
function staticMatch<TRoute>(entry: PatternEntry<TRoute>, method: string): RouteMatch<TRoute> | null {
  let match = entry.matches.get(method);
  if (match === undefined) {
    const slot = pick(entry.routes, method);
    match = slot === undefined ? null : { route: slot.route, params: NO_PARAMS };
    if (METHOD_ORDER.includes(method) || method === WS_METHOD) entry.matches.set(method, match);
  }
  return match;
}

// The joined regexp of a bucket's routes for a method, made on first use (standard methods only, so
// that clients cannot grow the cache with made-up ones; other methods take the loop).
function joinedFor<TRoute>(bucket: Bucket<TRoute>, method: string): Alternation<Slot<TRoute>> | null {
  let joined = bucket.joined.get(method);
  if (joined !== undefined) return joined;
  if (!METHOD_ORDER.includes(method) && method !== WS_METHOD) return null;
  const options: AlternationOption<Slot<TRoute>>[] = [];
  for (const entry of bucket.entries) {
    const slot = pick(entry.routes, method);
    if (slot !== undefined) options.push({ regexp: entry.regexp!, slot });
  }
  joined = alternation(options) ?? null;
  bucket.joined.set(method, joined);
  return joined;
}

// A segment's first character and its length, as one number.
function bucketKey(text: string, start: number, end: number): number {
  return (end - start) * 0x10000 + text.charCodeAt(start);
}

function insertSorted<TRoute>(list: PatternEntry<TRoute>[], entry: PatternEntry<TRoute>): void {
  let index = list.length;
  while (index > 0 && compareEntries(list[index - 1]!, entry) > 0) index--;
  list.splice(index, 0, entry);
}

function compareEntries<TRoute>(a: PatternEntry<TRoute>, b: PatternEntry<TRoute>): number {
  return compareRank(a.rank, b.rank) || a.order - b.order;
}

function compareRank(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

// A compiled pattern's text is built by concatenation, which engines may keep as a rope: compared with
// a request's path on every lookup, a rope is walked again each time (V8: 62 ns against 24 for a static
// route of 14 characters). A property name is stored flat (and interned), once.
function flat(text: string): string {
  return Object.keys({ [text]: true })[0]!;
}
