import { dictionary } from "../context/dictionary.ts";
import type { GroupPlan, Plan } from "../schema/plan.ts";
import { CAST_FAILED } from "../schema/scalars.ts";
import { isGroup, type NestedGroup, type NestedValue } from "./parse-nested.ts";

/** A value whose cast failed: the client's text and the type it was meant to be. */
interface FailedCast {
  readonly input: string;
  readonly typeName: string;
}

/** Failed casts by parameter path (keys joined with NUL). */
export type FailedCasts = Map<string, FailedCast>;

/** Joins a parameter path into a map key. */
export function pathKey(path: readonly string[]): string {
  return path.join("\u0000");
}

/**
 * Casts the strings of a path, query or form source to the declared types, renaming source keys to
 * field names. A value that cannot be cast is left as the string (validation then fails on it) and
 * recorded in `failed`, so that its message says what it could not be cast to.
 */
export function coerceGroup(plan: GroupPlan, node: unknown, path: string[], failed: FailedCasts): unknown {
  if (node === undefined || typeof node !== "object" || node === null || Array.isArray(node)) return node;
  const out = dictionary<unknown>();
  const group = node as Record<string, NestedValue>;
  for (const { field, key, plan: child } of plan.fields) {
    const raw = group[key];
    if (raw === undefined) continue;
    path.push(key);
    const value = coerce(child, raw, path, failed);
    path.pop();
    if (value !== undefined) out[field] = value;
  }
  return out;
}

function coerce(plan: Plan, raw: NestedValue, path: string[], failed: FailedCasts): unknown {
  if (plan.kind === "group") return coerceGroup(plan, raw, path, failed);
  if (plan.kind === "array") {
    if (raw === "") return undefined;
    const items = Array.isArray(raw) ? raw : isGroup(raw) ? indexed(raw) : [raw];
    if (items === undefined) return raw;
    const out: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      path.push(String(i));
      out.push(coerce(plan.item, items[i]!, path, failed));
      path.pop();
    }
    return out;
  }
  const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (typeof text !== "string") return text;
  if (text === "") return plan.optional || !plan.keepsEmpty ? undefined : "";
  if (plan.cast === undefined) return text;
  const value = plan.cast(text);
  if (value !== CAST_FAILED) return value;
  failed.set(pathKey(path), { input: text, typeName: plan.typeName });
  return text;
}

// `ids[2]=c&ids[0]=a` → ["a", "c"]: the values in index order (gaps closed).
function indexed(group: NestedGroup): NestedValue[] | undefined {
  const keys = Object.keys(group);
  if (!keys.every((k) => /^\d+$/.test(k))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => group[k]!);
}

/**
 * A JSON body as validation should see it: objects copied (along the declared groups) into objects
 * with no inherited keys, so that an absent `toString` is absent rather than `Object.prototype`'s, and
 * source keys renamed to field names where a field uses `t.key`. Undeclared keys are kept (a strict
 * object schema still sees and refuses them).
 */
export function jsonInput(plan: Plan, value: unknown): unknown {
  if (plan.kind === "array")
    return Array.isArray(value) ? value.map((item) => jsonInput(plan.item, item)) : value;
  if (plan.kind !== "group" || typeof value !== "object" || value === null || Array.isArray(value))
    return value;
  const source = value as Record<string, unknown>;
  const out = dictionary<unknown>();
  // Undeclared keys are kept; a renamed field is read from its key only, never from its own name.
  const claimed = plan.claimed;
  for (const key of Object.keys(source)) if (!claimed.has(key)) out[key] = source[key];
  for (const { field, key, plan: child } of plan.fields) {
    if (Object.hasOwn(source, key))
      out[field] = child.kind === "scalar" ? source[key] : jsonInput(child, source[key]);
  }
  return out;
}

/** Turns a validation issue's path (field names, indices) back into the client's keys. */
export function toSourcePath(plan: Plan, keys: readonly unknown[]): string[] {
  const out: string[] = [];
  let current: Plan | undefined = plan;
  for (const key of keys) {
    if (current?.kind === "group") {
      const field: { key: string; plan: Plan } | undefined = current.fields.find((f) => f.field === key);
      out.push(field?.key ?? String(key));
      current = field?.plan;
    } else {
      out.push(String(key));
      current = current?.kind === "array" ? current.item : undefined;
    }
  }
  return out;
}
