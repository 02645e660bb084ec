import { type Part, parsePattern } from "../wire/path-pattern.ts";
import { type Ambiguity, findAmbiguity } from "./check-linear.ts";
import { patternSource } from "./pattern-source.ts";
import { charSet, parseRegExp, type RegExpNode, UncheckableError } from "./regexp-tree.ts";

/** A route pattern, compiled once: a map key when it is static, one regular expression otherwise. */
export interface CompiledPattern {
  /** The pattern as registered. */
  readonly pattern: string;
  /** The path it matches, when it is fully static (the key of a map lookup); else `undefined`. */
  readonly staticPath: string | undefined;
  /** Two patterns with the same shape match the same paths (the regexp, whatever the names). */
  readonly shape: string;
  /** Per segment: 0 static, 1 parameter, 2 optional, 3 wildcard. Orders dynamic routes (static first). */
  readonly rank: readonly number[];
  /** The first segment when it is static text (dynamic routes are bucketed by it). */
  readonly firstSegment: string | undefined;
  /** The parameter names, in capture order. */
  readonly names: readonly string[];
  /** The regexp (for dynamic patterns). */
  readonly regexp: RegExp | undefined;
}

/**
 * Compiles a URLPattern pathname pattern (`/users/:id`, `/files/*`, `/posts/:id(\\d+)`, `/:lang?/docs`)
 * with the standard's syntax and meaning, identical on every runtime. Trailing slashes are dropped
 * (routes ignore them). Refuses, with a `TypeError` that says why, invalid syntax, a repeated name,
 * and patterns whose matching time could grow faster than the path's length.
 */
export function compilePattern(pattern: string): CompiledPattern {
  if (!pattern.startsWith("/")) throw new TypeError(`Route pattern must start with "/": "${pattern}"`);
  let parts: Part[];
  try {
    parts = trimTrailingSlash(parsePattern(pattern, canonicalPathname));
  } catch (error) {
    throw invalid(pattern, error);
  }
  if (parts.every((part) => part.type === "fixed" && part.modifier === "")) {
    const path = parts.map((part) => (part as { value: string }).value).join("") || "/";
    return {
      pattern,
      staticPath: path,
      shape: path,
      rank: rankOf(parts, "v"),
      firstSegment: staticFirstSegment(parts),
      names: [],
      regexp: undefined,
    };
  }
  const { source, names, flags } = toRegExpSource(pattern, parts);
  let ambiguity: Ambiguity | undefined;
  try {
    ambiguity = findAmbiguity(source, flags);
  } catch (error) {
    if (error instanceof UncheckableError) throw invalid(pattern, error);
    throw error;
  }
  if (ambiguity !== undefined) throw superLinear(pattern, ambiguity, names);
  return {
    pattern,
    staticPath: undefined,
    shape: source,
    rank: rankOf(parts, flags),
    firstSegment: staticFirstSegment(parts),
    names,
    regexp: new RegExp(source, flags),
  };
}

/**
 * A pattern exactly as the URLPattern standard compiles its pathname (no route rules: no leading `/`
 * required, trailing slashes kept, no linear-time check), as one regexp and its capture names.
 */
export function compileStandard(
  pattern: string,
  ignoreCase = false,
): { regexp: RegExp; names: readonly string[] } {
  let parts: Part[];
  try {
    parts = parsePattern(pattern, canonicalPathname);
  } catch (error) {
    throw invalid(pattern, error);
  }
  const { source, names, flags } = toRegExpSource(pattern, parts);
  return { regexp: new RegExp(source, ignoreCase ? `${flags}i` : flags), names };
}

function toRegExpSource(
  pattern: string,
  parts: readonly Part[],
): { source: string; names: readonly string[]; flags: string } {
  const { source, names } = patternSource(parts);
  return { source, names, flags: regexpFlags(pattern, source) };
}

/**
 * Canonicalises a path as the URL parser serialises it (the standard's "canonicalize a pathname"):
 * `/café` → `/caf%C3%A9`, `/a/../b` → `/b`. Text that does not start with `/` keeps its relative form.
 */
export function canonicalPathname(text: string): string {
  if (text === "") return text;
  const url = new URL("http://portico.invalid/");
  const leadingSlash = text.charCodeAt(0) === 47;
  url.pathname = leadingSlash ? text : `/-${text}`;
  return leadingSlash ? url.pathname : url.pathname.slice(2);
}

// The standard compiles with `v`; a custom regexp only the older `u` syntax accepts (`[^/]`, `[a-z-]`,
// which Node 24's and Bun's URLPattern refuse and Deno's accepts) is compiled with `u` instead.
function regexpFlags(pattern: string, source: string): string {
  for (const flags of ["v", "u"]) {
    try {
      new RegExp(source, flags);
      return flags;
    } catch {
      // Try the next syntax.
    }
  }
  try {
    new RegExp(source, "v");
  } catch (error) {
    throw invalid(pattern, error);
  }
  return "v";
}

// Routes ignore trailing slashes: `/users/` is `/users` (the root stays `/`).
function trimTrailingSlash(parts: Part[]): Part[] {
  const last = parts[parts.length - 1];
  if (last?.type !== "fixed" || last.modifier !== "" || !last.value.endsWith("/")) return parts;
  let value = last.value;
  while (value.endsWith("/") && !(parts.length === 1 && value === "/")) value = value.slice(0, -1);
  const trimmed = parts.slice(0, -1);
  if (value !== "") trimmed.push({ type: "fixed", value, modifier: "" });
  return trimmed;
}

function rankOf(parts: readonly Part[], flags: string): number[] {
  const rank: number[] = [];
  const open = (value: number): void => {
    rank.push(value);
  };
  const mark = (value: number): void => {
    if (rank.length === 0) open(value);
    else rank[rank.length - 1] = Math.max(rank[rank.length - 1]!, value);
  };
  for (const part of parts) {
    if (part.type === "fixed") {
      const value = part.modifier === "" ? 0 : 2;
      part.value.split("/").forEach((piece, i) => {
        if (i > 0) open(value);
        else if (piece !== "") mark(value);
      });
      continue;
    }
    const spans =
      part.type === "full" ||
      part.modifier === "*" ||
      part.modifier === "+" ||
      (part.type === "regexp" && matchesSlash(parseRegExp(part.value, flags)));
    const value = spans ? 3 : part.modifier === "?" ? 2 : 1;
    if (part.prefix.includes("/")) open(value);
    else mark(value);
  }
  return rank;
}

const SLASH = charSet("\\/", "v");

function matchesSlash(node: RegExpNode): boolean {
  switch (node.kind) {
    case "char":
      return (node.set & SLASH) !== 0n;
    case "seq":
      return node.items.some(matchesSlash);
    case "alt":
      return node.options.some(matchesSlash);
    case "repeat":
      return matchesSlash(node.item);
    default:
      return false;
  }
}

// `/users/:id` → `users`: dynamic routes are only tried for paths whose first segment matches.
function staticFirstSegment(parts: readonly Part[]): string | undefined {
  const first = parts[0];
  if (first?.type !== "fixed" || first.modifier !== "") return undefined;
  const slash = first.value.indexOf("/", 1);
  if (slash > 0) return first.value.slice(1, slash) || undefined;
  const next = parts[1];
  const nextStartsSegment =
    next === undefined || (next.type === "fixed" ? next.value : next.prefix).startsWith("/");
  return nextStartsSegment ? first.value.slice(1) || undefined : undefined;
}

function invalid(pattern: string, error: unknown): TypeError {
  const reason = error instanceof Error ? error.message : String(error);
  return new TypeError(`Invalid route pattern "${pattern}": ${reason}`, { cause: error });
}

function superLinear(pattern: string, ambiguity: Ambiguity, names: readonly string[]): TypeError {
  const label = (group: number): string =>
    group === 0 ? "its fixed text" : `"${paramLabel(names[group - 1]!)}"`;
  const [a = 0, b = a] = ambiguity.groups;
  const what =
    ambiguity.kind === "exponential"
      ? `${label(a)} repeats something that can itself repeat over the same characters`
      : a === b
        ? `${label(a)} can split the same characters in several ways`
        : `${label(a)} and ${label(b)} can both take the same characters`;
  return new TypeError(
    `Route pattern "${pattern}" is refused: ${what}, so matching a long path could take time that grows ` +
      'faster than its length. Separate them with text that the first cannot contain (a "/", or a regexp ' +
      'that excludes the separator, e.g. ":a([^-]+)-:b"), or drop one of them.',
  );
}

function paramLabel(name: string): string {
  return /^\d+$/.test(name) ? `group ${name}` : `:${name}`;
}
