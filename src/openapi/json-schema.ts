import type * as v from "valibot";
import { asSchema, isForeignSchema } from "../params/standard-schema.ts";
import { toObjectSchema } from "../params/t.ts";
import { optionalPeer } from "../runtime/optional-peer.ts";
import type { Entries, SourceDeclaration } from "../schema/entries.ts";

const { toJsonSchema } = await optionalPeer(
  "@valibot/to-json-schema",
  "portico/openapi",
  () => import("@valibot/to-json-schema"),
);

/** A JSON Schema (2020-12), as OpenAPI 3.1 uses it. */
export type Schema = Record<string, unknown>;

/**
 * The JSON Schema of a valibot schema, as a client sends it (the input side of transforms). The `t`
 * helpers carry their formats as `v.metadata` actions (`int32`, `int64`, `double`, `date-time`), which
 * the converter copies; a `bigint` is an integer in JSON; a Standard Schema (zod, arktype) brings its
 * library's own JSON Schema.
 */
export function jsonSchemaOf(schema: v.GenericSchema): Schema {
  const converted = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
    overrideSchema: ({ valibotSchema }) => {
      if (isForeignSchema(valibotSchema)) return foreignJsonSchema(valibotSchema.jsonSchema);
      return valibotSchema.type === "bigint" ? { type: "integer" } : undefined;
    },
  }) as Schema;
  delete converted.$schema;
  return converted;
}

/** A source declaration (entries or a schema, valibot's or any Standard Schema) as one valibot schema. */
export function sourceSchema(declaration: SourceDeclaration): v.GenericSchema {
  return asSchema(declaration) ?? toObjectSchema(declaration as Entries);
}

// A Standard Schema's own JSON Schema (zod's, arktype's), or "anything" when its library gives none.
function foreignJsonSchema(json: Record<string, unknown> | undefined): Schema {
  if (json === undefined) return {};
  const { $schema: _, ...rest } = json;
  return rest;
}
