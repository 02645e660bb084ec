import type * as v from "valibot";

/** Any valibot schema (sync). */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/** A source or group declared as entries: each value a valibot schema, or a plain object (a nested group). */
export interface Entries {
  readonly [key: string]: AnySchema | Entries;
}

/** A source declaration: entries, or a valibot schema of an object. */
export type SourceDeclaration = Entries | AnySchema;

// valibot leaves a key out of the output (`key?:`) when its schema is optional without a default.
type IsOptionalKey<TValue> = TValue extends {
  readonly type: "optional" | "exact_optional" | "nullish";
  readonly default: undefined;
}
  ? true
  : false;

type Flatten<TObject> = { [K in keyof TObject]: TObject[K] } & {};

/** The parsed value of entries: nested groups become objects, optional keys stay optional. */
export type InferEntries<TEntries extends Entries> = Flatten<
  {
    -readonly [K in keyof TEntries as IsOptionalKey<TEntries[K]> extends true ? never : K]: InferDeclaration<
      TEntries[K]
    >;
  } & {
    -readonly [K in keyof TEntries as IsOptionalKey<TEntries[K]> extends true ? K : never]?: InferDeclaration<
      TEntries[K]
    >;
  }
>;

/** The parsed value of a source declaration (entries or a schema). */
export type InferDeclaration<TDeclaration> = TDeclaration extends AnySchema
  ? v.InferOutput<TDeclaration>
  : TDeclaration extends Entries
    ? InferEntries<TDeclaration>
    : never;

/** True when a value is a valibot schema (rather than a plain object of entries). */
export function isSchema(value: unknown): value is AnySchema {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema";
}
