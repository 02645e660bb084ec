// One operation of the OpenAPI document, from a route's declarations: its parameters (path, query,
// header, cookie), its request body, its success (the views, or what the route documents), the other
// answers its middleware and documentation name, and its errors (by status, each envelope a
// component).
import type { HeaderDoc, ResponseDoc, RouteDoc } from "../context/route-doc.ts";
import type { Endpoint } from "../endpoint/define-endpoint.ts";
import type { ErrorRendering } from "../errors/render-error.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import { isBodySpec } from "../params/t.ts";
import { declared } from "../schema/declared.ts";
import type { SourceDeclaration } from "../schema/entries.ts";
import type { Plan } from "../schema/plan.ts";
import { MULTI_SEGMENT } from "../wire/contract.ts";
import { type Components, headerObject } from "./components.ts";
import { type Declared, errorResponses, errorsByCode } from "./error-responses.ts";
import { jsonSchemaOf, type Schema } from "./json-schema.ts";
import { DECLARED_AS } from "./path-templates.ts";

/** What a route brings to its operation besides its endpoint. */
export interface OperationInput {
  readonly endpoint: Endpoint<ParamsDeclaration> | undefined;
  /** Its path parameters as the template names them, with what the pattern says of each. */
  readonly pathNames: Map<string, Schema>;
  /** The errors its middleware declares for this method. */
  readonly middlewareErrors: readonly Declared[];
  /** The headers its middleware adds for this method. */
  readonly headers: Readonly<Record<string, HeaderDoc>>;
  /** The answers its middleware gives besides errors, and those its documentation names. */
  readonly responses: Readonly<Record<number, string | ResponseDoc>>;
  /** Its merged documentation (the endpoint's included). */
  readonly doc: RouteDoc;
  /** The header every answer carries the request id in. */
  readonly requestIdHeader: string;
  /** How the app renders its errors: its own body, the status of parameter errors. */
  readonly errorRendering: ErrorRendering;
  readonly components: Components;
}

type Operation = Record<string, unknown>;

// Where each string source goes in OpenAPI's parameters.
const PLACES = [
  ["query", "query"],
  ["headers", "header"],
  ["cookies", "cookie"],
] as const;

/** The operation: parameters, request body and responses. */
export function operationOf(input: OperationInput): Operation {
  const { endpoint, components } = input;
  const operation: Operation = {};
  const params = endpoint?.params ?? {};
  const parameters = parametersOf(input.pathNames, params);
  if (parameters.length > 0) operation.parameters = parameters;
  const body = requestBody(params);
  if (body !== undefined) operation.requestBody = body;
  // Every answer carries the request id.
  const idHeader = { [input.requestIdHeader]: components.header(input.requestIdHeader, REQUEST_ID) };
  const withHeaders = (
    response: Record<string, unknown>,
    headers: Readonly<Record<string, HeaderDoc>> = {},
  ) => ({
    ...response,
    headers: {
      ...idHeader,
      ...Object.fromEntries(Object.entries(headers).map(([n, d]) => [n, headerObject(d)])),
    },
  });
  const responses: Record<string, unknown> = {};
  const status = String(endpoint?.status ?? 200);
  // An endpoint without a view whose documentation names its own answers (a redirect) is not said to
  // answer "200, no view declared" as well.
  const answersOwn = Object.keys(input.doc.responses ?? {}).some((code) => Number(code) < 400);
  if (!(endpoint !== undefined && endpoint.views.length === 0 && answersOwn))
    responses[status] = withHeaders(success(endpoint), { ...input.headers, ...input.doc.headers });
  for (const [code, doc] of Object.entries(input.responses)) {
    const { description, headers, mediaTypes } =
      typeof doc === "string" ? ({ description: doc } as ResponseDoc) : doc;
    const content = Object.fromEntries(
      (mediaTypes ?? []).map((type) => [type, { schema: { type: "string" } }]),
    );
    responses[code] = withHeaders(
      { description, ...(mediaTypes === undefined ? {} : { content }) },
      code === status ? { ...input.headers, ...headers } : headers,
    );
  }
  Object.assign(responses, errorResponses(errorsByCode(input, params), input, withHeaders));
  operation.responses = responses;
  return operation;
}

const REQUEST_ID: HeaderDoc = {
  description: "The request's id (given by the client, or made)",
  required: true,
};

/** OpenAPI's `parameters` of a route: its path's (as the template names them), query, headers, cookies. */
export function parametersOf(
  pathNames: Map<string, Schema>,
  params: ParamsDeclaration,
): Record<string, unknown>[] {
  const parameters = pathParameters(pathNames, params.path);
  for (const [source, place] of PLACES) {
    if (params[source] === undefined) continue;
    const parts = objectParts(params[source] as SourceDeclaration);
    for (const [name, schema] of Object.entries(parts.properties)) {
      const parameter: Record<string, unknown> = {
        name,
        in: place,
        required: parts.required.has(name),
        schema,
      };
      if (isObject(schema)) Object.assign(parameter, { style: "deepObject", explode: true });
      parameters.push(parameter);
    }
  }
  return parameters;
}

function pathParameters(pathNames: Map<string, Schema>, path: unknown): Record<string, unknown>[] {
  const declaredPath = path === undefined ? undefined : objectParts(path as SourceDeclaration);
  return [...pathNames].map(([name, fromPattern]) => {
    const { [MULTI_SEGMENT]: multi, [DECLARED_AS]: declaredAs, type: _string, ...fromRoute } = fromPattern;
    const declared = declaredPath?.properties[(declaredAs as string | undefined) ?? name];
    // A declared schema is the parameter's (its own type, or none: `anyOf`…); the pattern's regexp
    // and description stay beside it.
    return {
      name,
      in: "path",
      required: true,
      schema: declared ? { ...fromRoute, ...declared } : { type: "string", ...fromRoute },
      ...(multi ? { [MULTI_SEGMENT]: true } : {}),
    };
  });
}

function requestBody(params: ParamsDeclaration): Record<string, unknown> | undefined {
  const content: Record<string, unknown> = {};
  let required = false;
  for (const [source, mediaType] of [
    ["form", "application/x-www-form-urlencoded"],
    ["json", "application/json"],
  ] as const) {
    const declaration = params[source];
    if (declaration === undefined) continue;
    const spec = isBodySpec(declaration) ? declaration : undefined;
    required ||= spec?.require === true;
    const read = declared(spec ? spec.declaration : (declaration as SourceDeclaration));
    const schema = jsonSchemaOf(read.schema);
    if (source === "json") {
      content[mediaType] = { schema };
      continue;
    }
    // A form with files is multipart only (its files as `format: binary`); any form may be multipart.
    // A nested group is sent as `group[field]=…` (deepObject), which standard tools then produce.
    const encoding = formEncoding(schema, read.plan);
    const form = encoding === undefined ? { schema } : { schema, encoding };
    if (!read.files) content[mediaType] = form;
    content["multipart/form-data"] = form;
  }
  return Object.keys(content).length > 0 ? { required, content } : undefined;
}

// The errors of an operation by status, each name once: its middleware's, the body limit's 413, the
// parameter errors, the endpoint's.
function success(endpoint: Endpoint<ParamsDeclaration> | undefined): Record<string, unknown> {
  if (endpoint === undefined) return { description: "Answered by a block handler: not declared" };
  if (endpoint.views.length === 0) return { description: "Success (no view declared)" };
  const byMediaType = new Map<string, Schema[]>();
  for (const view of endpoint.views) {
    for (const mediaType of view.mediaTypes) {
      // The view's schema describes its `json` renderer; another JSON renderer (`+json`) returns what
      // it chooses, so its shape is not known.
      const schema: Schema =
        mediaType === "application/json"
          ? view.schema
            ? jsonSchemaOf(view.schema)
            : {}
          : mediaType.endsWith("+json")
            ? {}
            : { type: "string" };
      byMediaType.set(mediaType, [...(byMediaType.get(mediaType) ?? []), schema]);
    }
  }
  const content: Record<string, unknown> = {};
  for (const [mediaType, schemas] of byMediaType) {
    // anyOf: two views may describe overlapping shapes, which oneOf would refuse.
    content[mediaType] = { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } };
  }
  return { description: "Success", content };
}

// The properties of a source's object schema (source keys, as `t.key` renames them) and which are required.
function objectParts(declaration: SourceDeclaration): {
  properties: Record<string, Schema>;
  required: Set<string>;
} {
  const { schema, plan } = declared(declaration);
  const converted = jsonSchemaOf(schema);
  const keys = new Map(plan.kind === "group" ? plan.fields.map(({ field, key }) => [field, key]) : []);
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const listed = new Set((converted.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries((converted.properties ?? {}) as Record<string, Schema>)) {
    const key = keys.get(name) ?? name;
    properties[key] = property;
    if (listed.has(name)) required.add(key);
  }
  return { properties, required };
}

// A form's `encoding`: nested groups (objects, or lists of them) as deepObject, exploded; a file field's
// accepted types as its `contentType` (and its size limit in its schema's description).
function formEncoding(schema: Schema, plan: Plan): Record<string, unknown> | undefined {
  const encoding: Record<string, unknown> = {};
  const fields = plan.kind === "group" ? plan.fields : [];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    if (isObject(property)) encoding[name] = { style: "deepObject", explode: true };
    const field = fields.find((candidate) => candidate.field === name)?.plan;
    const file =
      field?.kind === "scalar"
        ? field.file
        : field?.kind === "array" && field.item.kind === "scalar"
          ? field.item.file
          : undefined;
    if (file?.types !== undefined) encoding[name] = { contentType: file.types.join(", ") };
    // No keyword bounds a binary's size: said in words (a larger file is refused with 413).
    if (file?.maxSize !== undefined) {
      const said = `At most ${file.maxSize} bytes.`;
      const target = property.type === "array" ? (property.items as Schema) : property;
      target.description = target.description === undefined ? said : `${target.description} ${said}`;
    }
  }
  return Object.keys(encoding).length > 0 ? encoding : undefined;
}

function isObject(schema: Schema): boolean {
  return schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
}
