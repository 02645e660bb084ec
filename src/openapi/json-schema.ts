import type * as v from "valibot";
import { optionalPeer } from "../runtime/optional-peer.ts";
import { markIn } from "../schema/mark.ts";
import { jsonSchemaOfStandard } from "../schema/standard.ts";

const { toJsonSchema } = await optionalPeer(
  "@valibot/to-json-schema",
  "portico/openapi",
  () => import("@valibot/to-json-schema"),
);

/** A JSON Schema (2020-12), as OpenAPI 3.1 uses it. */
export type Schema = Record<string, unknown>;

/**
 * The JSON Schema of a valibot schema, as a client sends it (the input side of transforms). The `t`
 * helpers' marks carry their formats (`int32`, `int64`, `double`, `date-time`, `binary`), which the
 * converter copies; a `bigint` is an integer in JSON; a Standard Schema (zod, arktype) brings its
 * library's own JSON Schema (or "anything" when its library gives none).
 */
export function jsonSchemaOf(schema: v.GenericSchema): Schema {
  const converted = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
    overrideAction: ({ valibotAction }) => {
      const standard = markIn(valibotAction)?.standard;
      return standard === undefined ? undefined : (jsonSchemaOfStandard(standard) ?? {});
    },
    overrideSchema: ({ valibotSchema }) =>
      valibotSchema.type === "bigint" ? { type: "integer" } : undefined,
  }) as Schema;
  delete converted.$schema;
  return converted;
}
