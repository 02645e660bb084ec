import type { Part } from "../wire/path-pattern.ts";

/** A pattern as one regular expression (for the `v` flag): its source and the name of each capture. */
export interface PatternSource {
  readonly source: string;
  /** The parameter name of capture group `i + 1`. */
  readonly names: readonly string[];
}

const SEGMENT = "[^\\/]+?";

/**
 * The regular expression of a parsed pattern, as the standard generates it ("generate a regular
 * expression and name list"), with one change that never changes a match: a `:name` followed in its
 * segment by text and another `:name` (`:from-:to`, `:a.:b`) matches up to the first occurrence of
 * that text instead of trying every split, so that matching stays linear in the path's length.
 */
export function patternSource(parts: readonly Part[]): PatternSource {
  let source = "^";
  const names: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type === "fixed") {
      source +=
        part.modifier === "" ? escapeRegExp(part.value) : `(?:${escapeRegExp(part.value)})${part.modifier}`;
      continue;
    }
    names.push(part.name);
    const value =
      part.type === "segment"
        ? segmentValue(parts, i)
        : part.type === "full"
          ? ".*"
          : unnameGroups(part.value);
    const { prefix, suffix, modifier } = part;
    if (prefix === "" && suffix === "") {
      source += modifier === "" || modifier === "?" ? `(${value})${modifier}` : `((?:${value})${modifier})`;
    } else if (modifier === "" || modifier === "?") {
      source += `(?:${escapeRegExp(prefix)}(${value})${escapeRegExp(suffix)})${modifier}`;
    } else {
      source += `(?:${escapeRegExp(prefix)}((?:${value})(?:${escapeRegExp(suffix)}${escapeRegExp(prefix)}(?:${value}))*)${escapeRegExp(suffix)})`;
      if (modifier === "*") source += "?";
    }
  }
  return { source: `${source}$`, names };
}

// The lazy segment wildcard tries every length of `:a` in `:a-:b`; `:a` can only end at the first
// "-" (after at least one character): if the rest matched from a later "-", `:b` could as well take
// the characters in between, since both stay inside the segment. So the first occurrence is taken.
function segmentValue(parts: readonly Part[], index: number): string {
  const literal = literalBeforeNextSegment(parts, index);
  if (literal === undefined) return SEGMENT;
  if (literal.length === 1) return `[^\\/][^\\/${escapeClass(literal)}]*`;
  return `[^\\/](?:(?!${escapeRegExp(literal)})[^\\/])*`;
}

// The text between a segment wildcard and the next one, when both occur exactly once and the text
// keeps them in one segment.
function literalBeforeNextSegment(parts: readonly Part[], index: number): string | undefined {
  const part = parts[index]!;
  if (part.type === "fixed" || part.modifier !== "") return undefined;
  let literal = part.suffix;
  let next = index + 1;
  for (; next < parts.length; next++) {
    const between = parts[next]!;
    if (between.type !== "fixed") break;
    if (between.modifier !== "") return undefined;
    literal += between.value;
  }
  const following = parts[next];
  if (following === undefined || following.type !== "segment" || following.modifier !== "") return undefined;
  literal += following.prefix;
  return literal === "" || literal.includes("/") ? undefined : literal;
}

// A named group inside a custom regexp would take a capture number; it captures nothing we read
// (the standard reports only the pattern's names), so it becomes a non-capturing group.
function unnameGroups(regexp: string): string {
  let out = "";
  for (let i = 0; i < regexp.length; i++) {
    const c = regexp[i]!;
    if (c === "\\") {
      out += regexp.slice(i, i + 2);
      i++;
    } else if (c === "(" && regexp.startsWith("?<", i + 1) && !"=!".includes(regexp[i + 3] ?? "")) {
      const close = regexp.indexOf(">", i);
      out += "(?:";
      i = close;
    } else out += c;
  }
  return out;
}

/** Escapes text for use in a regular expression (the standard's "escape a regexp string"). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.+*?^${}()[\]|/\\]/g, "\\$&");
}

// Inside a `v`-flag class, these must be escaped too.
function escapeClass(text: string): string {
  return text.replace(/[()[\]{}/\-\\|&!#%,:;<=>@`~^$*+?.]/g, "\\$&");
}
