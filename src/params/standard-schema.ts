import type * as v from "valibot";
import type { SchemaNode } from "../schema/entries.ts";
import {
  isStandardSchema,
  type StandardIssue,
  type StandardProps,
  type StandardSchemaV1,
} from "../schema/standard.ts";

/** A Standard Schema wrapped to run where a valibot schema does. */
export interface ForeignSchema extends v.GenericSchema<unknown, unknown> {
  /** `optional` when the schema accepts `undefined` (valibot's objects then let the key be absent). */
  readonly type: "standard" | "optional";
  /** The wrapped schema. */
  readonly standard: StandardSchemaV1;
  /**
   * What the plan reads, made from the schema's JSON Schema input: the types that cast (without a JSON
   * Schema from the library, nothing is cast).
   */
  readonly shadow: SchemaNode;
  /** The JSON Schema of its input, when the library provides it (for the OpenAPI document). */
  readonly jsonSchema: Record<string, unknown> | undefined;
}

const wrapped = new WeakMap<object, ForeignSchema>();

/**
 * Wraps a Standard Schema (zod, arktype, …) so that params parsing runs it as it runs valibot's:
 * validated synchronously, its issues turned into valibot issues that carry only the library's
 * message (without the value it echoes, such as arktype's `(was …)`) and the path.
 */
function fromStandardSchema(schema: StandardSchemaV1): ForeignSchema {
  const known = wrapped.get(schema);
  if (known !== undefined) return known;
  const props = schema["~standard"];
  let json: Record<string, unknown> | undefined;
  try {
    json = props.jsonSchema?.input({ target: "draft-2020-12" });
  } catch {
    json = undefined;
  }
  const optional = acceptsUndefined(props);
  const base = json === undefined ? { type: "unknown" } : shadowOf(json);
  const core = {
    kind: "schema",
    type: "standard",
    reference: fromStandardSchema,
    expects: props.vendor,
    async: false,
    message: undefined,
    standard: schema,
    shadow: base,
    jsonSchema: json,
    "~standard": props,
    "~run"(dataset: { value: unknown; typed?: boolean; issues?: unknown[] }) {
      const result = props.validate(dataset.value);
      if (result instanceof Promise) {
        throw new TypeError(
          `A ${props.vendor} schema validated asynchronously: params need synchronous schemas`,
        );
      }
      if (result.issues === undefined) {
        dataset.typed = true;
        dataset.value = result.value;
        return dataset;
      }
      dataset.typed = false;
      dataset.issues = result.issues.map((issue) => toValibotIssue(issue, dataset.value));
      return dataset;
    },
  } as unknown as ForeignSchema;
  // Accepting `undefined`, it reads as valibot's `optional` (objects then let the key be absent), over
  // itself, as converters expect of an optional wrapper.
  const foreign: ForeignSchema = optional
    ? ({
        ...core,
        type: "optional",
        wrapped: core,
        shadow: { type: "optional", wrapped: base },
      } as ForeignSchema)
    : core;
  wrapped.set(schema, foreign);
  return foreign;
}

/** True for a Standard Schema wrapped by {@link fromStandardSchema}. */
export function isForeignSchema(value: object): value is ForeignSchema {
  return (value as { reference?: unknown }).reference === fromStandardSchema;
}

/** The schema itself if valibot's, else the wrapped Standard Schema, else `undefined`. */
export function asSchema(value: unknown): v.GenericSchema | undefined {
  if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema") {
    return value as v.GenericSchema;
  }
  return isStandardSchema(value) ? fromStandardSchema(value) : undefined;
}

function acceptsUndefined(props: StandardProps): boolean {
  try {
    const result = props.validate(undefined);
    return !(result instanceof Promise) && result.issues === undefined;
  } catch {
    return false;
  }
}

function toValibotIssue(issue: StandardIssue, input: unknown): v.BaseIssue<unknown> {
  // Array.from, not .map: arktype's path is an Array subclass whose constructor .map would call.
  const keys = Array.from(issue.path ?? [], (segment) =>
    typeof segment === "object" && segment !== null ? segment.key : segment,
  );
  let message = issue.message.replace(/\s*\(was [\s\S]*\)\s*$/, "").replace(/^Invalid input:\s*/i, "");
  const prefix = keys.map(String).join(".");
  if (prefix !== "" && message.startsWith(`${prefix} `)) message = message.slice(prefix.length + 1);
  if (message.length > 200) message = `${message.slice(0, 200)}…`;
  return {
    kind: "validation",
    type: "standard",
    input: keys.length === 0 ? input : undefined,
    expected: null,
    received: "unknown",
    message,
    path: keys.map((key) => ({ type: "unknown", origin: "value", input: undefined, key, value: undefined })),
  } as unknown as v.BaseIssue<unknown>;
}

// The JSON Schema of a library's input, as the nodes the plan reads (types that cast; everything else
// is passed on as text).
function shadowOf(json: Record<string, unknown>): SchemaNode {
  const type = json.type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== "null");
    return real.length === 1 ? shadowOf({ ...json, type: real[0] }) : { type: "unknown" };
  }
  if (Array.isArray(json.anyOf) || Array.isArray(json.oneOf)) {
    const branches = ((json.anyOf ?? json.oneOf) as Record<string, unknown>[]).filter(
      (branch) => Object.keys(branch).length > 0 && branch.type !== "null",
    );
    return branches.length === 1 ? shadowOf(branches[0]!) : { type: "unknown" };
  }
  if ("const" in json) return { type: "literal", literal: json.const };
  if (Array.isArray(json.enum)) return { type: "picklist", options: json.enum };
  switch (type) {
    case "integer":
      return { type: "number", pipe: [{ type: "integer" }] };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "string":
      return { type: "string" };
    case "array":
      return {
        type: "array",
        item:
          json.items && typeof json.items === "object"
            ? shadowOf(json.items as Record<string, unknown>)
            : { type: "unknown" },
      };
    case "object": {
      const required = new Set((json.required as string[] | undefined) ?? []);
      const entries: Record<string, SchemaNode> = {};
      for (const [key, property] of Object.entries(
        (json.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        const node = shadowOf(property);
        entries[key] = required.has(key) ? node : { type: "optional", wrapped: node };
      }
      return { type: "object", entries };
    }
    default:
      return { type: "unknown" };
  }
}
