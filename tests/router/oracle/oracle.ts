// URLPattern as the oracle: random patterns of the pathname syntax and random paths, each answered by
// Portico's compiler and by a `URLPattern` (the runtime's own, or urlpattern-polyfill), from a fixed
// seed so that every runtime sees the same cases. What differs is reported, sorted into the kinds the
// README documents; anything else is a failure.
import { canonicalPathname, compileStandard } from "../../../src/router/compile-pattern.ts";

/** A `URLPattern` class, the runtime's or the polyfill's. */
export type URLPatternClass = new (init: {
  pathname: string;
}) => {
  exec(input: { pathname: string }): { pathname: { groups: Record<string, string | undefined> } } | null;
};

/** What the comparison found. */
export interface OracleReport {
  readonly patterns: number;
  readonly paths: number;
  /** Same answer (both refuse the pattern, or both give the same groups, or no match, for each path). */
  readonly agreed: number;
  /** Documented differences, by kind. */
  readonly documented: Record<string, number>;
  /** Anything else: one line each. */
  readonly failed: readonly string[];
}

// mulberry32: a small seeded generator, the same sequence on every runtime.
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "a",
  "foo",
  "x1",
  ":p",
  ":p(\\d+)",
  ":p([a-z]+)",
  ":p([^-]+)",
  ":p(.*)",
  ":p(a|b)",
  "*",
  "{-x}",
  "{:p.}",
  "(a)",
  "(\\d+)",
];
const MODIFIERS = ["", "", "", "?", "+", "*"];
const SEPARATORS = ["/", "/", "/", "-", "."];
const PATH_UNITS = ["a", "b", "1", "x", "-", ".", "/", "foo", "%20", "é"];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function randomPattern(random: () => number): string {
  const count = 1 + Math.floor(random() * 4);
  let n = 0;
  let out = "";
  for (let i = 0; i < count; i++) {
    const piece = pick(random, PIECES).replace(":p", () => `:p${n++}`);
    const fixed = /^[a-z0-9]+$/.test(piece);
    out += (i === 0 ? "/" : pick(random, SEPARATORS)) + piece + (fixed ? "" : pick(random, MODIFIERS));
  }
  return out;
}

function randomPath(random: () => number): string {
  const count = Math.floor(random() * 6);
  let out = "/";
  for (let i = 0; i < count; i++) out += pick(random, PATH_UNITS);
  return out;
}

type Groups = Record<string, string | null> | null | "refused";

// Portico's answer: the groups by name (an unmatched optional group is null), or no match.
function portico(pattern: string, path: string): Groups {
  let compiled: ReturnType<typeof compileStandard>;
  try {
    compiled = compileStandard(pattern);
  } catch {
    return "refused";
  }
  const match = compiled.regexp.exec(path);
  if (match === null) return null;
  return Object.fromEntries(compiled.names.map((name, i) => [name, match[i + 1] ?? null]));
}

function standard(URLPattern: URLPatternClass, pattern: string, path: string): Groups {
  let compiled: InstanceType<URLPatternClass>;
  try {
    compiled = new URLPattern({ pathname: pattern });
  } catch {
    return "refused";
  }
  const match = compiled.exec({ pathname: path });
  if (match === null) return null;
  return Object.fromEntries(
    Object.entries(match.pathname.groups).map(([name, value]) => [name, value ?? null]),
  );
}

// The kinds of difference the README documents ("Patterns"): a custom regexp that only the older `u`
// syntax accepts (`[^-]`), which Portico compiles and Node 24's and Bun's URLPattern refuse; and, for
// urlpattern-polyfill only, a path that begins with `//`, which the polyfill reads as an authority
// (the standard, Portico and the native URLPatterns match it as a path).
function documentedKind(
  pattern: string,
  path: string,
  ours: Groups,
  theirs: Groups,
  polyfill: boolean,
): string | undefined {
  if (theirs === "refused" && ours !== "refused" && /\[\^-\]/.test(pattern))
    return "u-only regexp syntax (Portico compiles it; this URLPattern refuses it)";
  if (polyfill && path.startsWith("//"))
    return "a path beginning with // (urlpattern-polyfill's own reading)";
  return undefined;
}

// Groups compared whatever order their names come in (Node 24's URLPattern lists them its own way).
function key(groups: Groups): string {
  return typeof groups === "object" && groups !== null
    ? JSON.stringify(Object.entries(groups).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : JSON.stringify(groups);
}

/** Compares `count` random patterns, each on `pathsEach` random paths. */
export function compare(
  URLPattern: URLPatternClass,
  { polyfill = false, seed = 20_261_126, count = 400, pathsEach = 12 } = {},
): OracleReport {
  const random = generator(seed);
  let agreed = 0;
  let paths = 0;
  const documented: Record<string, number> = {};
  const failed: string[] = [];
  for (let i = 0; i < count; i++) {
    const pattern = randomPattern(random);
    for (let j = 0; j < pathsEach; j++) {
      // As a request's path reaches the router: canonical (what URLPattern makes of any input first).
      const path = canonicalPathname(randomPath(random));
      paths++;
      const ours = portico(pattern, path);
      const theirs = standard(URLPattern, pattern, path);
      if (key(ours) === key(theirs)) {
        agreed++;
        continue;
      }
      const kind = documentedKind(pattern, path, ours, theirs, polyfill);
      if (kind !== undefined) documented[kind] = (documented[kind] ?? 0) + 1;
      else if (failed.length < 20)
        failed.push(
          `${pattern} on ${path}: Portico ${JSON.stringify(ours)}, URLPattern ${JSON.stringify(theirs)}`,
        );
    }
  }
  return { patterns: count, paths, agreed, documented, failed };
}
