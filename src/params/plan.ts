import { FORBIDDEN_KEYS, type SchemaNode } from "../schema/entries.ts";
import { type FileOptions, getMeta } from "./schema-meta.ts";
import { isForeignSchema } from "./standard-schema.ts";

/** Casts a source string to the declared type; returns {@link CAST_FAILED} when it cannot. */
type Caster = (text: string) => unknown;

/** What a caster returns for a string it cannot cast. */
export const CAST_FAILED: unique symbol = Symbol("cast failed");

/** How to read one declared value from a source: found once per endpoint by inspecting its schema. */
export type Plan = ScalarPlan | ArrayPlan | GroupPlan;

/** A single value. */
interface ScalarPlan {
  readonly kind: "scalar";
  readonly optional: boolean;
  /** The type's name in messages. */
  readonly typeName: string;
  /** The cast for string sources (absent: the string is passed on as it is). */
  readonly cast: Caster | undefined;
  /** An empty string is a value (a string type) rather than "missing". */
  readonly keepsEmpty: boolean;
  /** A file field's options (`t.file`), for the multipart reader. */
  readonly file?: FileOptions | undefined;
}

/** An array of values. */
interface ArrayPlan {
  readonly kind: "array";
  readonly optional: boolean;
  readonly item: Plan;
}

/** A nested group (or a whole source). */
export interface GroupPlan {
  readonly kind: "group";
  readonly optional: boolean;
  readonly fields: readonly FieldPlan[];
  /**
   * The source keys a JSON body's copy leaves to the fields: every declared key, and the name of each
   * field read from another key (`t.key`), which the client may not send under that name.
   */
  readonly claimed: ReadonlySet<string>;
}

/** One field of a group: its name in the output, the key it is read from, and its plan. */
interface FieldPlan {
  readonly field: string;
  readonly key: string;
  readonly plan: Plan;
}

const WRAPPERS = new Set(["optional", "nullable", "nullish", "exact_optional", "undefinedable"]);
const OBJECTS = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

/** Inspects a schema: how to read, cast and name its value from a string source. */
export function planOf(schema: object): Plan {
  if (isForeignSchema(schema)) return planOf(schema.shadow);
  let node = schema as SchemaNode;
  let optional = false;
  while (WRAPPERS.has(node.type) && node.wrapped) {
    if (node.type !== "nullable") optional = true;
    node = node.wrapped;
  }
  if (OBJECTS.has(node.type) && node.entries) return groupPlan(node.entries, optional);
  if (node.type === "array" && node.item) return { kind: "array", optional, item: planOf(node.item) };
  const meta = getMeta(node);
  const typeName = meta?.typeName ?? inferTypeName(node);
  return {
    kind: "scalar",
    optional,
    typeName,
    cast: casterFor(typeName, node),
    keepsEmpty: typeName === "String" || (meta?.typeName === undefined && isStringLike(node)),
    file: meta?.file,
  };
}

/** The plan of a group's entries (the valibot object entries, keys as declared). */
function groupPlan(entries: Readonly<Record<string, object>>, optional: boolean): GroupPlan {
  const fields: FieldPlan[] = [];
  for (const [field, schema] of Object.entries(entries)) {
    fields.push({ field, key: keyOf(schema) ?? field, plan: planOf(schema) });
  }
  const claimed = new Set(fields.flatMap(({ field, key }) => [field, key]));
  return { kind: "group", optional, fields, claimed };
}

// t.key() may sit outside or inside the optional wrapper.
function keyOf(schema: object): string | undefined {
  let node: SchemaNode | undefined = schema as SchemaNode;
  while (node) {
    const key = getMeta(node)?.key;
    if (key !== undefined) return key;
    node = WRAPPERS.has(node.type) ? node.wrapped : undefined;
  }
  return undefined;
}

function inferTypeName(node: SchemaNode): string {
  switch (node.type) {
    case "number":
      return node.pipe?.some((action) => action.type === "integer" || action.type === "safe_integer")
        ? "Integer"
        : "Float64";
    case "bigint":
      return "Int64";
    case "boolean":
      return "Bool";
    case "date":
      return "Date";
    case "string":
      return "String";
    case "literal":
      return typeof node.literal === "string" ? "String" : (JSON.stringify(node.literal) ?? "Literal");
    case "picklist":
    case "enum":
      return "one of the allowed values";
    default:
      return node.type;
  }
}

function isStringLike(node: SchemaNode): boolean {
  if (node.type === "string" || node.type === "unknown" || node.type === "any") return true;
  if (node.type === "literal") return typeof node.literal === "string";
  if (node.type === "picklist") return node.options?.every((o) => typeof o === "string") ?? false;
  return false;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function castInteger(text: string): unknown {
  if (!INTEGER.test(text)) return CAST_FAILED;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : CAST_FAILED;
}

function castFloat(text: string): unknown {
  if (!DECIMAL.test(text)) return CAST_FAILED;
  const value = Number(text);
  return Number.isFinite(value) ? value : CAST_FAILED;
}

function castBigInt(text: string): unknown {
  if (!INTEGER.test(text) || text.length > 21) return CAST_FAILED;
  const value = BigInt(text);
  return value >= -(2n ** 63n) && value < 2n ** 63n ? value : CAST_FAILED;
}

function castBool(text: string): unknown {
  return text === "true" ? true : text === "false" ? false : CAST_FAILED;
}

function casterFor(typeName: string, node: SchemaNode): Caster | undefined {
  switch (typeName) {
    case "Int32":
      return (text) => {
        const value = castInteger(text);
        return typeof value === "number" && value >= INT32_MIN && value <= INT32_MAX ? value : CAST_FAILED;
      };
    case "Integer":
    case "Epoch":
      return castInteger;
    case "Float64":
      return castFloat;
    case "Int64":
      return castBigInt;
    case "Bool":
      return castBool;
    case "Date":
      // t.date() parses its own string; a plain v.date() needs a Date.
      return node.type === "date" ? castDate : undefined;
    default:
      if (node.type === "literal" && typeof node.literal === "number") return castFloat;
      if (node.type === "literal" && typeof node.literal === "boolean") return castBool;
      return undefined;
  }
}

function castDate(text: string): unknown {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text) ? CAST_FAILED : date;
}

/** Rejects declarations that cannot be read from a source (and keys that could reach a prototype). */
export function checkPlan(plan: GroupPlan, where: string, flat: boolean): void {
  for (const { field, key, plan: child } of plan.fields) {
    if (FORBIDDEN_KEYS.has(key)) throw new TypeError(`${where}: "${key}" cannot be a parameter name`);
    if (flat && child.kind !== "scalar") {
      throw new TypeError(`${where}: path parameter "${field}" cannot be a group or an array`);
    }
    if (child.kind === "group") checkPlan(child, where, flat);
  }
}
