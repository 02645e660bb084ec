// The error responses of the OpenAPI document (`openapi.ts`): declared errors, as sent in Portico's
// envelope, and the ones the framework itself answers with.
import type { ErrorClass } from "../errors/define-error.ts";
import { declared } from "../schema/declared.ts";
import type { Entries } from "../schema/entries.ts";
import { toWords } from "../wire/contract.ts";
import { jsonSchemaOf, type Schema } from "./json-schema.ts";

/** An error an operation may answer with. */
export type Declared = { readonly name: string; readonly code: number; readonly payload: Schema };

/** 413: a body over the app's limit (or a part over its own), refused before the endpoint runs. */
export const PAYLOAD_TOO_LARGE: Declared = { name: "PayloadTooLarge", code: 413, payload: { type: "null" } };

/** The payload of the parameter errors (400). */
export const PARAM_ERROR_PAYLOAD: Schema = {
  type: "object",
  required: ["path", "issues"],
  properties: {
    path: { type: "array", items: { type: "string" } },
    issues: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "array", items: { type: "string" } }, message: { type: "string" } },
      },
    },
    truncated: { const: true },
  },
};

/** The errors an endpoint or a middleware declares. */
export function declaredErrors(errors: Record<string, ErrorClass<unknown>> | undefined): Declared[] {
  return Object.entries(errors ?? {}).map(([name, error]) => ({
    name,
    code: error.code,
    payload:
      error.payloadEntries === undefined
        ? { type: "null" }
        : jsonSchemaOf(declared(error.payloadEntries as Entries).schema),
  }));
}

// Portico's error envelope: `{ error: { name, message, code, payload } }`, the name in words as sent.
export function envelope(error: Declared): Schema {
  return {
    title: error.name,
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["name", "message", "code", "payload"],
        properties: {
          name: { const: toWords(error.name) },
          message: { type: ["string", "null"] },
          code: { const: error.code },
          payload: error.payload,
        },
      },
    },
  };
}
