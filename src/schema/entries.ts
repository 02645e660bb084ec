import type * as v from "valibot";
import type { StandardInput, StandardOutput, StandardSchemaV1 } from "./standard.ts";

/** Any valibot schema (sync). */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/**
 * A source or group declared as entries: each value a valibot schema, any Standard Schema (zod,
 * arktype…), or a plain object (a nested group).
 */
export interface Entries {
  /** A parameter's schema, or a plain object for a nested group. */
  readonly [key: string]: AnySchema | StandardSchemaV1 | Entries;
}

/** A source declaration: entries, or a schema of an object (valibot or any Standard Schema). */
export type SourceDeclaration = Entries | AnySchema | StandardSchemaV1;

/**
 * Whether a key may be left out of the parsed object: valibot's optional wrappers without a default,
 * or a Standard Schema whose output admits `undefined`.
 */
export type MayBeOmitted<TDeclaration> = TDeclaration extends AnySchema
  ? TDeclaration extends {
      readonly type: "optional" | "exact_optional" | "nullish";
      readonly default: undefined;
    }
    ? true
    : false
  : TDeclaration extends StandardSchemaV1
    ? undefined extends StandardOutput<TDeclaration>
      ? true
      : false
    : false;

/**
 * The parsed value of entries: nested groups become objects; a key whose schema is optional without a
 * default is optional (valibot leaves it out of the output).
 */
export type InferEntries<TEntries extends Entries> = {
  -readonly [K in Exclude<keyof TEntries, OmittedKeys<TEntries>>]: InferDeclaration<TEntries[K]>;
} & {
  -readonly [K in OmittedKeys<TEntries>]?: InferDeclaration<TEntries[K]>;
} extends infer TObject
  ? { [K in keyof TObject]: TObject[K] }
  : never;

/** The keys of entries the parsed value may lack. */
export type OmittedKeys<TEntries> = {
  [K in keyof TEntries]: MayBeOmitted<TEntries[K]> extends true ? K : never;
}[keyof TEntries];

/** The parsed value of a source declaration (entries or a schema). */
export type InferDeclaration<TDeclaration> = TDeclaration extends AnySchema
  ? v.InferOutput<TDeclaration>
  : TDeclaration extends StandardSchemaV1
    ? StandardOutput<TDeclaration>
    : TDeclaration extends Entries
      ? InferEntries<TDeclaration>
      : never;

/** Keys that could reach an object's prototype; never accepted as parameter names. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** A schema a caller may leave out: valibot's optional wrappers, or a Standard Schema accepting `undefined`. */
export type OptionalSchema = { readonly type: "optional" | "exact_optional" | "nullish" };

/** Whether a caller may leave an entry out. */
export type MayLeaveOut<TDeclaration> = TDeclaration extends OptionalSchema
  ? true
  : TDeclaration extends AnySchema
    ? false
    : TDeclaration extends StandardSchemaV1
      ? undefined extends StandardInput<TDeclaration>
        ? true
        : false
      : false;

/**
 * What a caller sends for entries: each schema's input type; optional entries may be left out. (The
 * optional keys are found once and mapped over, which costs the checker a tenth of a key-remapping
 * `as` clause per client method.)
 */
export type InputEntries<TEntries> = {
  -readonly [K in Exclude<keyof TEntries, LeftOutKeys<TEntries>>]: InputOf<TEntries[K]>;
} & {
  -readonly [K in LeftOutKeys<TEntries>]?: InputOf<TEntries[K]>;
};

/** The keys of entries a caller may leave out. */
export type LeftOutKeys<TEntries> = {
  [K in keyof TEntries]: MayLeaveOut<TEntries[K]> extends true ? K : never;
}[keyof TEntries];

/** What a caller sends for one declaration: a schema's input type, or a group's entries. */
export type InputOf<TDeclaration> = TDeclaration extends AnySchema
  ? v.InferInput<TDeclaration>
  : TDeclaration extends StandardSchemaV1
    ? StandardInput<TDeclaration>
    : TDeclaration extends Entries
      ? InputEntries<TDeclaration>
      : never;
