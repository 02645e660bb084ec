/**
 * The Standard Schema interface (https://standardschema.dev), v1, with its JSON Schema extension:
 * what zod 4, arktype 2, valibot and others implement. Declared here, as the spec asks implementers
 * to do, rather than depending on a package.
 */
export interface StandardSchemaV1<TInput = unknown, TOutput = TInput> {
  /** The standard properties. */
  readonly "~standard": StandardProps<TInput, TOutput>;
}

/** The standard properties of a schema. */
export interface StandardProps<TInput = unknown, TOutput = TInput> {
  /** The version of the standard (1). */
  readonly version: 1;
  /** The library's name (`zod`, `arktype`, `valibot`…). */
  readonly vendor: string;
  /** Validates a value: the output, or issues (possibly as a promise). */
  readonly validate: (value: unknown) => StandardResult<TOutput> | Promise<StandardResult<TOutput>>;
  /** The input and output types (types only). */
  readonly types?: StandardTypes<TInput, TOutput> | undefined;
  /** The Standard JSON Schema extension, where the library provides it. */
  readonly jsonSchema?: StandardJsonSchema | undefined;
}

/** The Standard JSON Schema extension. */
export interface StandardJsonSchema {
  /** The JSON Schema of what the schema accepts. */
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
}

/** A validation's result: the output value, or the issues. */
export type StandardResult<TOutput> =
  | { readonly value: TOutput; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One issue. */
export interface StandardIssue {
  /** The library's message (it may echo the value: Portico never sends it as is). */
  readonly message: string;
  /** Where the issue is: keys, or objects with a key. */
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The input and output types of a schema. */
export interface StandardTypes<TInput = unknown, TOutput = TInput> {
  /** What the schema accepts. */
  readonly input: TInput;
  /** What it gives back. */
  readonly output: TOutput;
}

/** The input type of a Standard Schema. */
export type StandardInput<TSchema extends StandardSchemaV1> = NonNullable<
  TSchema["~standard"]["types"]
>["input"];

/** The output type of a Standard Schema. */
export type StandardOutput<TSchema extends StandardSchemaV1> = NonNullable<
  TSchema["~standard"]["types"]
>["output"];

/** True for a Standard Schema that is not a valibot schema (valibot schemas are handled natively). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    "~standard" in value &&
    (value as { kind?: unknown }).kind !== "schema"
  );
}

/** A JSON Schema, as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of what a Standard Schema accepts, from its library (draft 2020-12, without
 * `$schema`), or `undefined` when the library gives none (or cannot convert this schema).
 */
export function jsonSchemaOfStandard(schema: StandardSchemaV1): JsonSchema | undefined {
  try {
    const json = schema["~standard"].jsonSchema?.input({ target: "draft-2020-12" });
    if (json === undefined) return undefined;
    const { $schema: _, ...rest } = json;
    return rest;
  } catch {
    return undefined;
  }
}
