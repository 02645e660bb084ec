import type { Limits } from "../context/limits.ts";
import { type ParamSource, paramMessage, paramsError } from "../errors/param-errors.ts";
import { FORBIDDEN_KEYS } from "../schema/entries.ts";

/** A single value: text, or a file of a multipart form. */
type NestedLeaf = string | Blob | { readonly stream: () => ReadableStream<Uint8Array> };

/** A value parsed from a query or form: a single value, repeated values, or a nested group. */
export type NestedValue = NestedLeaf | NestedValue[] | NestedGroup;

/** True for a nested group (a null-prototype object), false for a single value or a list. */
export function isGroup(value: unknown): value is NestedGroup {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === null;
}

/** A group of nested values (a null-prototype object: no key can reach a prototype). */
export interface NestedGroup {
  [key: string]: NestedValue;
}

const BRACKETS = /\[([^[\]]*)\]/y;
const INDEX = /^\d+$/;

/**
 * Parses `application/x-www-form-urlencoded` text (a query string or a form body) into nested groups:
 * `user[name]=x`, `ids[]=1`, `ids[0]=1`, repeated keys. Keys and values are percent-decoded and `+`
 * is a space. Bounds from `limits` (parameter count, depth, array index) give a 400.
 */
export function parseNested(text: string, source: ParamSource, limits: Limits): NestedGroup {
  const builder = nestedBuilder(source, limits);
  if (text === "") return builder.root;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("&", start);
    if (end < 0) end = text.length;
    if (end > start) {
      const pair = text.slice(start, end);
      const eq = pair.indexOf("=");
      builder.add(
        decode(eq < 0 ? pair : pair.slice(0, eq), source),
        eq < 0 ? "" : decode(pair.slice(eq + 1), source),
      );
    }
    start = end + 1;
  }
  return builder.root;
}

/** Builds nested groups from `key=value` pairs (a query, a urlencoded form, a multipart form's parts). */
export interface NestedBuilder {
  /** Adds one pair, by its decoded key (`user[name]`, `ids[]`). */
  add(key: string, value: NestedLeaf): void;
  /** The groups so far. */
  readonly root: NestedGroup;
}

/** A builder bounded by `limits` (parameter count, depth, array index: a 400 past them). */
export function nestedBuilder(source: ParamSource, limits: Limits): NestedBuilder {
  const root: NestedGroup = Object.create(null);
  let count = 0;
  return {
    root,
    add(key, value) {
      if (++count > limits.paramCount) fail(source, [], `count is over the limit of ${limits.paramCount}`);
      assign(root, splitKey(key), value, source, limits);
    },
  };
}

/** The names a key nests under, without list markers and indices: `photos[1]` → `["photos"]`. */
export function keyPath(key: string): string[] {
  return splitKey(key).filter((segment, i) => segment !== "" && !(i > 0 && INDEX.test(segment)));
}

function decode(text: string, source: ParamSource): string {
  let out = text;
  if (out.indexOf("+") >= 0) out = out.replace(/\+/g, " ");
  if (out.indexOf("%") < 0) return out;
  try {
    return decodeURIComponent(out);
  } catch {
    return fail(source, [], `has malformed percent-encoding: ${JSON.stringify(text.slice(0, 64))}`);
  }
}

// `user[address][city]` → ["user", "address", "city"]; a key that is not well bracketed is one name.
function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  BRACKETS.lastIndex = open;
  for (let match = BRACKETS.exec(key); match !== null; match = BRACKETS.exec(key)) {
    segments.push(match[1]!);
    if (BRACKETS.lastIndex === key.length) return segments;
  }
  return [key];
}

function assign(
  root: NestedGroup,
  segments: string[],
  value: NestedLeaf,
  source: ParamSource,
  limits: Limits,
): void {
  if (segments.length - 1 > limits.paramDepth) {
    fail(source, segments, `nests deeper than the limit of ${limits.paramDepth}`);
  }
  let group = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (FORBIDDEN_KEYS.has(segment)) fail(source, segments, "is not allowed");
    if (INDEX.test(segment) && i > 0 && Number(segment) > limits.arrayIndex) {
      fail(source, segments, `has an array index over the limit of ${limits.arrayIndex}`);
    }
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    if (next === "" && i + 1 === segments.length - 1) {
      // `ids[]=x`: append.
      group[segment] = appended(group[segment], value, source, segments, limits);
      return;
    }
    if (segment === "") fail(source, segments, "uses [] before a nested key; use an index such as [0]");
    const existing = group[segment];
    if (last) {
      group[segment] = existing === undefined ? value : appended(existing, value, source, segments, limits);
      return;
    }
    if (!isGroup(existing)) {
      const child: NestedGroup = Object.create(null);
      group[segment] = child;
      group = child;
    } else {
      group = existing;
    }
  }
}

// A repeated key collects its values; the reader takes the last one for a scalar, all for an array.
function appended(
  existing: NestedValue | undefined,
  value: NestedLeaf,
  source: ParamSource,
  segments: string[],
  limits: Limits,
): NestedValue[] {
  const list =
    existing === undefined ? [] : Array.isArray(existing) ? existing : isGroup(existing) ? [] : [existing];
  if (list.length > limits.arrayIndex)
    fail(source, segments, `has more than ${limits.arrayIndex + 1} values`);
  list.push(value);
  return list;
}

function fail(source: ParamSource, segments: readonly string[], text: string): never {
  const path = segments.filter((s) => s !== "");
  const label = source === "query" ? "Query" : "Form";
  const message = path.length === 0 ? `${label} parameter ${text}` : paramMessage(source, path, text);
  throw paramsError(source, [{ path, message }]);
}
