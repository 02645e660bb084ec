import { helperType, unmarked } from "./mark.ts";
import type { ValibotNode } from "./plan.ts";
import { type FastValidator, SCALARS, UNSURE } from "./scalars.ts";

const OPTIONAL = new Set(["optional", "nullish", "exact_optional"]);

/**
 * Compiles a validator for the common case, once per source: plain objects, arrays, optional values
 * (with a plain default), plain `string`/`number`/`boolean`, and unmodified `t` helpers (`int32`,
 * `int64`, `float`, `bool`, `string`). It only ever answers a success — the very output valibot would
 * give — or {@link UNSURE}, for anything it does not know (a pipe, a union, a function default) or any
 * input it would have to refuse: valibot then runs and reports the issues. Returns `undefined` when the
 * schema holds something it does not know at all.
 *
 * What it saves: on Bun, valibot's generic walk was a quarter of an S2 request's time (bench profile).
 */
export function compileFastValidator(schema: object): FastValidator | undefined {
  const node = schema as ValibotNode;
  const helper = helperType(node);
  if (helper !== undefined) return SCALARS[helper].check;
  const bare = unmarked(node);
  if (bare !== node) return compileFastValidator(bare);
  if (node.pipe !== undefined) return undefined;
  switch (node.type) {
    case "string":
      return (v) => (typeof v === "string" ? v : UNSURE);
    case "number":
      return (v) => (typeof v === "number" && !Number.isNaN(v) ? v : UNSURE);
    case "boolean":
      return (v) => (typeof v === "boolean" ? v : UNSURE);
    case "array": {
      const item = node.item && compileFastValidator(node.item);
      if (item === undefined) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return UNSURE;
        const out: unknown[] = [];
        for (const element of v) {
          const value = item(element);
          if (value === UNSURE) return UNSURE;
          out.push(value);
        }
        return out;
      };
    }
    case "object":
      return node.entries === undefined ? undefined : objectValidator(node.entries);
    default:
      return OPTIONAL.has(node.type) ? optionalValidator(node) : undefined;
  }
}

function optionalValidator(node: ValibotNode): FastValidator | undefined {
  const wrapped = node.wrapped && compileFastValidator(node.wrapped);
  if (wrapped === undefined || typeof node.default === "function") return undefined;
  const fallback = node.default;
  const nullish = node.type === "nullish";
  // As valibot: an absent value takes the default, which is then validated like a given one.
  return (v) => {
    const value = v === undefined ? fallback : v;
    if (value === undefined || (nullish && value === null)) return value;
    return wrapped(value);
  };
}

function objectValidator(entries: Readonly<Record<string, ValibotNode>>): FastValidator | undefined {
  const fields: { key: string; validate: FastValidator; optional: boolean; hasDefault: boolean }[] = [];
  for (const [key, entry] of Object.entries(entries)) {
    const validate = compileFastValidator(entry);
    if (validate === undefined) return undefined;
    const optional = OPTIONAL.has(entry.type);
    fields.push({ key, validate, optional, hasDefault: optional && entry.default !== undefined });
  }
  // As valibot's `object`: a key present (`in`), or absent with a default, is validated and kept when
  // it has a value or was present; an absent required key is an issue (so: unsure).
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return UNSURE;
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const { key, validate, optional, hasDefault } of fields) {
      const present = key in input;
      if (!present && !hasDefault) {
        if (optional) continue;
        return UNSURE;
      }
      const value = validate(present ? input[key] : undefined);
      if (value === UNSURE) return UNSURE;
      if (value !== undefined || present) out[key] = value;
    }
    return out;
  };
}
