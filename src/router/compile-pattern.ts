import { parse } from "regexparam";
import { URLPatternClass } from "./urlpattern.ts";

/** A route pattern compiled to the cheapest matcher its syntax allows. */
export interface CompiledPattern {
  /** The pattern as registered (normalised: no trailing slash). */
  readonly source: string;
  /** `static`: map lookup; `simple`: one regexparam regex; `full`: a URLPattern. */
  readonly kind: "static" | "simple" | "full";
  /** The pattern with parameter names removed: two patterns with the same shape match the same paths. */
  readonly shape: string;
  /** Per segment: 0 static, 1 parameter, 2 optional, 3 wildcard. Orders dynamic routes (static first). */
  readonly rank: readonly number[];
  /** Matches a normalised path; returns the raw (still encoded) parameters, or `undefined`. */
  exec(path: string): Record<string, string> | undefined;
}

const SPECIAL = /[:*(){}?+\\]/;
const SIMPLE_STATIC_SEGMENT = /^[\w~-]+$/;
const SIMPLE_PARAM_SEGMENT = /^:[A-Za-z_$][\w$]*\??$/;
const EMPTY: Record<string, string> = Object.freeze(Object.create(null));

/** Strips trailing slashes, keeping `/` for the root. */
export function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

/**
 * Compiles a URLPattern pathname pattern (`/users/:id`, `/files/*`, `/posts/:id(\\d+)`, `/:lang?/docs`).
 * Fully static patterns are looked up in a map, simple ones (`:name`, `:name?`, a trailing `*`) become
 * one regex through regexparam, and anything else is a full `URLPattern`.
 */
export function compilePattern(pattern: string): CompiledPattern {
  if (!pattern.startsWith("/")) throw new TypeError(`Route pattern must start with "/": "${pattern}"`);
  const source = trimTrailingSlashes(pattern);
  const segments = source === "/" ? [] : source.slice(1).split("/");
  if (!SPECIAL.test(source)) {
    const path = canonicalPath(source);
    return { source: path, kind: "static", shape: path, rank: segments.map(() => 0), exec: () => EMPTY };
  }
  const rank = segments.map(rankOf);
  const shape = source.replace(/:[A-Za-z_$][\w$]*/g, ":");
  const isSimple = segments.every(
    (s, i) =>
      SIMPLE_STATIC_SEGMENT.test(s) ||
      SIMPLE_PARAM_SEGMENT.test(s) ||
      (s === "*" && i === segments.length - 1),
  );
  if (isSimple) return compileSimple(source, shape, rank);
  return compileFull(source, shape, rank);
}

function compileSimple(source: string, shape: string, rank: readonly number[]): CompiledPattern {
  const { keys, pattern } = parse(source);
  // regexparam matches case-insensitively; URLPattern (and our static map) does not.
  const regex = new RegExp(pattern.source);
  const names = (keys as string[]).map((key) => (key === "*" ? "0" : key));
  return {
    source,
    kind: "simple",
    shape,
    rank,
    exec(path) {
      const match = regex.exec(path);
      if (match === null) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) {
        const value = match[i + 1];
        if (value !== undefined) params[names[i]!] = value;
      }
      return params;
    },
  };
}

function compileFull(source: string, shape: string, rank: readonly number[]): CompiledPattern {
  let urlPattern: InstanceType<typeof URLPatternClass>;
  try {
    urlPattern = new URLPatternClass({ pathname: source });
  } catch (error) {
    throw new TypeError(`Invalid route pattern "${source}": ${(error as Error).message}`);
  }
  return {
    source,
    kind: "full",
    shape,
    rank,
    exec(path) {
      const match = urlPattern.exec({ pathname: path });
      if (match === null) return undefined;
      const params: Record<string, string> = {};
      const groups = match.pathname.groups;
      for (const name in groups) {
        const value = groups[name];
        if (value !== undefined) params[name] = value;
      }
      return params;
    },
  };
}

function rankOf(segment: string): number {
  if (segment.includes("*")) return 3;
  if (/[:({]/.test(segment)) return segment.endsWith("?") || segment.endsWith("}?") ? 2 : 1;
  return 0;
}

// A static pattern is compared with request paths as the URL parser serialises them (`/café` → `/caf%C3%A9`).
function canonicalPath(path: string): string {
  if (/^[\w/~.-]*$/.test(path)) return path;
  return new URL(path, "http://localhost").pathname;
}
