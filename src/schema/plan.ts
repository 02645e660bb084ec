import { FORBIDDEN_KEYS } from "./entries.ts";
import { type FileOptions, markOf } from "./mark.ts";
import { type Caster, castBool, castDate, castFloat, SCALARS, type ScalarName } from "./scalars.ts";
import { type JsonSchema, jsonSchemaOfStandard } from "./standard.ts";

/** How to read one declared value from a source: found once per endpoint by reading its schema. */
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
  /** A file field's options (`t.file`), for the multipart reader and the OpenAPI document. */
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

/** The parts of a valibot schema a plan reads. */
/** The parts of a valibot schema Portico reads (here, in the fast validator and in the view serializer). */
export interface ValibotNode {
  readonly type: string;
  readonly wrapped?: ValibotNode;
  readonly entries?: Readonly<Record<string, ValibotNode>>;
  readonly item?: ValibotNode;
  readonly literal?: unknown;
  readonly options?: readonly unknown[];
  readonly pipe?: readonly { readonly type: string }[];
  readonly default?: unknown;
}

/** valibot's wrappers around a schema (optional, nullable…). */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "nullish",
  "exact_optional",
  "undefinedable",
]);
const OBJECTS: ReadonlySet<string> = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

/** Reads a valibot schema (a Standard Schema it runs is read from its JSON Schema). */
export function planOf(schema: object): Plan {
  let node = schema as ValibotNode;
  let optional = false;
  while (WRAPPERS.has(node.type) && node.wrapped) {
    if (node.type !== "nullable") optional = true;
    node = node.wrapped;
  }
  const marked = markOf(node);
  if (marked?.standard !== undefined) return planOfJson(jsonSchemaOfStandard(marked.standard), optional);
  if (OBJECTS.has(node.type) && node.entries) {
    return groupPlan(Object.entries(node.entries), optional, (entry) => ({
      key: keyOf(entry),
      plan: planOf(entry),
    }));
  }
  if (node.type === "array" && node.item) return { kind: "array", optional, item: planOf(node.item) };
  const type = marked?.type;
  if (type === undefined) return inferred(node, optional);
  const { cast, keepsEmpty = false } = SCALARS[type];
  return { kind: "scalar", optional, typeName: type, cast, keepsEmpty, file: marked?.file };
}

/**
 * Reads a JSON Schema (a Standard Schema's input): the types that cast; anything else is passed on as
 * text. Without a JSON Schema from the library, nothing is cast.
 */
function planOfJson(json: JsonSchema | undefined, optional: boolean): Plan {
  if (json === undefined) return text(optional, "unknown", true);
  const type = json.type;
  if (Array.isArray(type)) {
    const real = type.filter((name) => name !== "null");
    return real.length === 1
      ? planOfJson({ ...json, type: real[0] }, optional)
      : planOfJson(undefined, optional);
  }
  const branches = (json.anyOf ?? json.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    const real = branches.filter((branch) => Object.keys(branch).length > 0 && branch.type !== "null");
    return planOfJson(real.length === 1 ? real[0] : undefined, optional);
  }
  if ("const" in json) return literal(json.const, optional);
  if (Array.isArray(json.enum)) return choice(json.enum, optional);
  switch (type) {
    case "integer":
      return scalarOf("Integer", optional);
    case "number":
      return scalarOf("Float64", optional);
    case "boolean":
      return scalarOf("Bool", optional);
    case "string":
      return scalarOf("String", optional);
    case "array": {
      const items = typeof json.items === "object" ? (json.items as JsonSchema) : undefined;
      return { kind: "array", optional, item: planOfJson(items, false) };
    }
    case "object": {
      const required = new Set((json.required as string[] | undefined) ?? []);
      const properties = Object.entries((json.properties ?? {}) as Record<string, JsonSchema>);
      return groupPlan(properties, optional, (property, key) => ({
        key,
        plan: planOfJson(property, !required.has(key)),
      }));
    }
    default:
      return planOfJson(undefined, optional);
  }
}

function groupPlan<T>(
  entries: [string, T][],
  optional: boolean,
  read: (entry: T, field: string) => { key: string | undefined; plan: Plan },
): GroupPlan {
  const fields: FieldPlan[] = entries.map(([field, entry]) => {
    const { key, plan } = read(entry, field);
    return { field, key: key ?? field, plan };
  });
  const claimed = new Set(fields.flatMap(({ field, key }) => [field, key]));
  return { kind: "group", optional, fields, claimed };
}

// t.key() may sit outside or inside the optional wrapper.
function keyOf(schema: ValibotNode): string | undefined {
  let node: ValibotNode | undefined = schema;
  while (node) {
    const key = markOf(node)?.key;
    if (key !== undefined) return key;
    node = WRAPPERS.has(node.type) ? node.wrapped : undefined;
  }
  return undefined;
}

function scalarOf(type: ScalarName, optional: boolean): ScalarPlan {
  const { cast, keepsEmpty = false } = SCALARS[type];
  return { kind: "scalar", optional, typeName: type, cast, keepsEmpty };
}

function text(optional: boolean, typeName: string, keepsEmpty: boolean): ScalarPlan {
  return { kind: "scalar", optional, typeName, cast: undefined, keepsEmpty };
}

function literal(value: unknown, optional: boolean): ScalarPlan {
  if (typeof value === "string") return text(optional, "String", true);
  const cast = typeof value === "number" ? castFloat : typeof value === "boolean" ? castBool : undefined;
  return { kind: "scalar", optional, typeName: JSON.stringify(value) ?? "Literal", cast, keepsEmpty: false };
}

function choice(options: readonly unknown[], optional: boolean): ScalarPlan {
  return text(
    optional,
    "one of the allowed values",
    options.every((option) => typeof option === "string"),
  );
}

// A plain valibot type (not a `t` helper): valibot's own type names, read here only.
function inferred(node: ValibotNode, optional: boolean): ScalarPlan {
  switch (node.type) {
    case "number": {
      const integer = node.pipe?.some(
        (action) => action.type === "integer" || action.type === "safe_integer",
      );
      return scalarOf(integer ? "Integer" : "Float64", optional);
    }
    case "bigint":
      return scalarOf("Int64", optional);
    case "boolean":
      return scalarOf("Bool", optional);
    case "date":
      return { kind: "scalar", optional, typeName: "Date", cast: castDate, keepsEmpty: false };
    case "string":
      return scalarOf("String", optional);
    case "literal":
      return literal(node.literal, optional);
    case "picklist":
      return choice(node.options ?? [], optional);
    case "enum":
      return text(optional, "one of the allowed values", false);
    default:
      return text(optional, node.type, node.type === "unknown" || node.type === "any");
  }
}

/** True when a plan reads a file anywhere (a form with one is multipart only). */
export function hasFiles(plan: Plan): boolean {
  if (plan.kind === "scalar") return plan.file !== undefined;
  return plan.kind === "array" ? hasFiles(plan.item) : plan.fields.some((field) => hasFiles(field.plan));
}

/** Rejects declarations that cannot be read from a source (and keys that could reach a prototype). */
export function checkPlan(plan: GroupPlan, where: string, flat: boolean): void {
  for (const { field, key, plan: child } of plan.fields) {
    if (FORBIDDEN_KEYS.has(key)) throw new TypeError(`${where}: "${key}" cannot be a parameter name`);
    if (flat && child.kind !== "scalar") {
      throw new TypeError(`${where}: "${field}" cannot be a group or an array`);
    }
    if (child.kind === "group") checkPlan(child, where, flat);
  }
}
