// The error responses of the OpenAPI document (`openapi.ts`): declared errors, as sent in Portico's
// envelope, and the ones the framework itself answers with.
import type { HeaderDoc } from "../context/route-doc.ts";
import type { ErrorClass } from "../errors/define-error.ts";
import { ERROR_MEDIA_TYPES, type ErrorRendering, PROBLEM_MEMBERS } from "../errors/render-error.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import { declared } from "../schema/declared.ts";
import type { Entries } from "../schema/entries.ts";
import { ERROR_NAME_HEADER, ERRORS_EXTENSION, PARAM_ERROR_NAMES, toWords } from "../wire/contract.ts";
import type { Components } from "./components.ts";
import { jsonSchemaOf, type Schema } from "./json-schema.ts";

/** An error an operation may answer with. */
export type Declared = {
  readonly name: string;
  readonly code: number;
  readonly payload: Schema;
  /** Its Problem Details `type`, when it declares one. */
  readonly problemType?: string | undefined;
};

/** 413: a body over the app's limit (or a part over its own), refused before the endpoint runs. */
const PAYLOAD_TOO_LARGE: Declared = { name: "PayloadTooLarge", code: 413, payload: { type: "null" } };

/** The payload of the parameter errors (400). */
const PARAM_ERROR_PAYLOAD: Schema = {
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
    problemType: error.problemType,
    payload:
      error.payloadEntries === undefined
        ? { type: "null" }
        : jsonSchemaOf(declared(error.payloadEntries as Entries).schema),
  }));
}

// Portico's error envelope: `{ error: { name, message, code, payload } }`, the name in words as sent.
function envelope(error: Declared): Schema {
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

// RFC 9457 Problem Details of one error: the standard members, its declared name, its payload's fields.
function problem(error: Declared): Schema {
  // The one payload kept as a reference is the parameter errors' (read here as what it names).
  const payload = ("$ref" in error.payload ? PARAM_ERROR_PAYLOAD : error.payload) as {
    properties?: Record<string, Schema>;
    required?: string[];
  };
  const extensions = Object.fromEntries(
    Object.entries(payload.properties ?? {}).filter(([key]) => !PROBLEM_MEMBERS.has(key)),
  );
  return {
    title: `${error.name} (Problem Details)`,
    type: "object",
    required: [
      "type",
      "title",
      "status",
      "instance",
      "name",
      ...(payload.required ?? []).filter((key) => key in extensions),
    ],
    properties: {
      type: error.problemType === undefined ? { const: "about:blank" } : { const: error.problemType },
      title: { const: toWords(error.name) },
      status: { const: error.code },
      detail: { type: "string" },
      instance: { type: "string", description: "The request's id" },
      name: { const: error.name },
      ...extensions,
    },
  };
}

/** What an operation's errors are found from. */
interface ErrorSources {
  readonly middlewareErrors: readonly Declared[];
  readonly endpoint: { readonly errors?: unknown } | undefined;
  readonly components: Components;
  readonly errorRendering: ErrorRendering;
}

/** The errors an operation may answer with, by status: its middleware's, the framework's, its own. */
export function errorsByCode(input: ErrorSources, params: ParamsDeclaration): [number, Declared[]][] {
  const errors: Declared[] = [
    ...input.middlewareErrors,
    // A body over the app's limit (or a part over its own) is refused before the endpoint runs.
    ...(params.form !== undefined || params.json !== undefined ? [PAYLOAD_TOO_LARGE] : []),
    ...(Object.keys(params) as (keyof ParamsDeclaration)[]).map((source) => ({
      name: PARAM_ERROR_NAMES[source],
      code: input.errorRendering.paramsStatus,
      payload: input.components.schema("ParamErrorPayload", PARAM_ERROR_PAYLOAD),
    })),
    ...declaredErrors(input.endpoint?.errors as Record<string, ErrorClass<unknown>> | undefined),
  ];
  const byCode = new Map<number, Declared[]>();
  for (const error of errors) {
    const list = byCode.get(error.code) ?? [];
    if (!list.some((known) => known.name === error.name)) list.push(error);
    byCode.set(error.code, list);
  }
  return [...byCode].sort(([a], [b]) => a - b);
}

const NAME_HEADER: HeaderDoc = {
  description: "The declared error this answer stands for (`UserNotFound`)",
  required: true,
  schema: { type: "string" },
};

/**
 * The error answers, one per status: in JSON Portico's envelope (each error a component, several an
 * anyOf), or the app's own body (one component, with the errors' names under `x-portico-errors` and
 * in the `Portico-Error` header); in text and HTML, a string.
 */
export function errorResponses(
  byCode: readonly [number, Declared[]][],
  input: ErrorSources,
  withHeaders: (response: Record<string, unknown>, headers?: Readonly<Record<string, HeaderDoc>>) => object,
): Record<string, unknown> {
  const { components } = input;
  const own = input.errorRendering.body;
  const ownSchema =
    own === undefined
      ? undefined
      : components.schema(
          own.name ?? "Error",
          own.schema === undefined ? {} : jsonSchemaOf(declared(own.schema).schema),
        );
  const responses: Record<string, unknown> = {};
  for (const [code, list] of byCode) {
    const refs =
      ownSchema === undefined ? list.map((error) => components.schema(error.name, envelope(error))) : [];
    // Several envelopes are an anyOf: their names exclude each other, but one level down, which linters miss.
    const problems = list.map((error) => components.schema(`${error.name}Problem`, problem(error)));
    const content: Record<string, unknown> = {};
    for (const mediaType of ERROR_MEDIA_TYPES)
      content[mediaType] =
        mediaType === "application/json"
          ? { schema: ownSchema ?? (refs.length === 1 ? refs[0] : { anyOf: refs }) }
          : mediaType === "application/problem+json"
            ? { schema: problems.length === 1 ? problems[0] : { anyOf: problems } }
            : { schema: { type: "string" } };
    // One answer per set of errors, written once: most operations share theirs.
    const names = list.map((error) => error.name);
    const response = withHeaders(
      { description: names.join(", "), content },
      ownSchema === undefined ? {} : { [toHeaderName(ERROR_NAME_HEADER)]: NAME_HEADER },
    );
    responses[String(code)] = components.response(
      names.join("Or"),
      ownSchema === undefined ? response : { ...response, [ERRORS_EXTENSION]: names },
    );
  }
  return responses;
}

const toHeaderName = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, letter) => dash + letter.toUpperCase());
