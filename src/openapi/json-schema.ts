import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { toObjectSchema } from "../params/t.ts";
import { type Entries, isSchema, type SourceDeclaration } from "../schema/entries.ts";

/** A JSON Schema (2020-12), as OpenAPI 3.1 uses it. */
export type Schema = Record<string, unknown>;

/**
 * The JSON Schema of a valibot schema, as a client sends it (the input side of transforms). The `t`
 * helpers carry their formats as `v.metadata` actions (`int32`, `int64`, `double`, `date-time`), which
 * the converter copies; a `bigint` is an integer in JSON.
 */
export function jsonSchemaOf(schema: v.GenericSchema): Schema {
  const converted = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
    overrideSchema: ({ valibotSchema }) =>
      valibotSchema.type === "bigint" ? { type: "integer" } : undefined,
  }) as Schema;
  delete converted.$schema;
  return converted;
}

/** A source declaration (entries or a schema) as one valibot object schema. */
export function sourceSchema(declaration: SourceDeclaration): v.GenericSchema {
  return isSchema(declaration) ? declaration : toObjectSchema(declaration as Entries);
}
