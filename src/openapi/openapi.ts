import type { RouteInfo } from "../app/create-app.ts";
import { isRunnable } from "../context/handler.ts";
import type { Endpoint } from "../endpoint/define-endpoint.ts";
import type { ErrorClass } from "../errors/define-error.ts";
import { ERROR_MEDIA_TYPES } from "../errors/render-error.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import { isBodySpec } from "../params/t.ts";
import { declared } from "../schema/declared.ts";
import type { SourceDeclaration } from "../schema/entries.ts";
import { MULTI_SEGMENT, PARAM_ERROR_NAMES } from "../wire/contract.ts";
import {
  type Declared,
  declaredErrors,
  envelope,
  PARAM_ERROR_PAYLOAD,
  PAYLOAD_TOO_LARGE,
} from "./error-responses.ts";
import { jsonSchemaOf, type Schema } from "./json-schema.ts";
import { DECLARED_AS, renamed, templates } from "./path-templates.ts";

/** Options of {@link openapi}. */
export interface OpenApiOptions {
  /** The document's `info` (title and version required). */
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  /** Where the API is served (`[{ url: "https://api.example/v1" }]`). */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
  /**
   * Told of each route the document cannot hold as it stands (one whose path and method another route
   * already documents). Default: `console.warn`.
   */
  readonly onWarning?: (message: string) => void;
}

// The methods OpenAPI 3.1 has a place for; others (`PROPFIND`, `QUERY`…) go under `x-additionalOperations`,
// as OpenAPI 3.2's `additionalOperations`, so the document stays valid.
const OPENAPI_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** An OpenAPI 3.1 document, as a plain object. */
export type OpenApiDocument = Record<string, unknown> & {
  readonly openapi: "3.1.0";
  readonly paths: Record<string, Record<string, unknown>>;
};

type Operation = Record<string, unknown>;

const PARAM_ERRORS: Readonly<Record<keyof ParamsDeclaration, string>> = PARAM_ERROR_NAMES;

/**
 * The OpenAPI 3.1 document of an app, from its declarations: every route `app.routes()` lists (named
 * ones get their name as `operationId`), path, query, header and cookie params as `parameters`, form and JSON bodies as
 * `requestBody`, each declared view per media type as the success response, and every declared error —
 * the endpoint's, its middleware's (`csrf()`, `bodyLimit()`, …) and the parameter errors — under its
 * status code in Portico's error envelope. Built once, from the routes registered so far; no registry
 * and no TypeScript compiler at run time. Websocket and `all()` routes are left out (OpenAPI cannot
 * describe them).
 *
 * @example
 * const doc = openapi(app, { info: { title: "Users", version: "1.0.0" } });
 * app.get("/openapi.json", () => Response.json(doc));
 */
export function openapi(app: { routes(): readonly RouteInfo[] }, options: OpenApiOptions): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  // Templates by shape (`/same/{}`): OpenAPI holds one path per shape, whatever its parameters' names.
  const byShape = new Map<string, string>();
  for (const route of app.routes()) {
    if (route.websocket || route.method === "ALL") continue;
    const endpoint = isRunnable(route.handler)
      ? (route.handler as unknown as Endpoint<ParamsDeclaration>)
      : undefined;
    const middlewareErrors = route.middleware.flatMap((middleware) => {
      const { errors, declaresFor } = middleware as {
        errors?: Record<string, ErrorClass<unknown>>;
        declaresFor?: (method: string) => boolean;
      };
      return declaresFor === undefined || declaresFor(route.method) ? declaredErrors(errors) : [];
    });
    for (const [index, variant] of templates(route.path).entries()) {
      const shape = variant.template.replace(/\{[^}]*\}/g, "{}");
      const template = byShape.get(shape) ?? variant.template;
      byShape.set(shape, template);
      const operation = operationOf(endpoint, renamed(variant, template), middlewareErrors);
      // operationId is unique per document: an optional group's other templates get `name__2`, …
      if (route.name !== undefined)
        operation.operationId = index === 0 ? route.name : `${route.name}__${index + 1}`;
      const method = route.method.toLowerCase();
      paths[template] ??= {};
      const item = paths[template];
      const standard = OPENAPI_METHODS.has(method);
      if (!standard) item["x-additionalOperations"] ??= {};
      const place = (standard ? item : item["x-additionalOperations"]) as Record<string, unknown>;
      const key = standard ? method : route.method;
      if (key in place) {
        warn(
          `[portico] openapi: ${route.method} ${route.path} is left out: ${route.method} ${template} already documents another route`,
        );
        continue;
      }
      place[key] = operation;
    }
  }
  return {
    openapi: "3.1.0",
    info: { ...options.info },
    ...(options.servers ? { servers: options.servers.map((server) => ({ ...server })) } : {}),
    paths,
  };
}

function operationOf(
  endpoint: Endpoint<ParamsDeclaration> | undefined,
  pathNames: Map<string, Schema>,
  middlewareErrors: readonly Declared[],
): Operation {
  const operation: Operation = {};
  const params = endpoint?.params ?? {};
  const parameters: Record<string, unknown>[] = [];
  const declaredPath = params.path === undefined ? undefined : objectParts(params.path as SourceDeclaration);
  for (const [name, fromPattern] of pathNames) {
    const { [MULTI_SEGMENT]: multi, [DECLARED_AS]: declaredAs, type: _string, ...fromRoute } = fromPattern;
    const declared = declaredPath?.properties[(declaredAs as string | undefined) ?? name];
    // A declared schema is the parameter's (its own type, or none: `anyOf`…); the pattern's regexp
    // and description stay beside it.
    parameters.push({
      name,
      in: "path",
      required: true,
      schema: declared ? { ...fromRoute, ...declared } : { type: "string", ...fromRoute },
      ...(multi ? { [MULTI_SEGMENT]: true } : {}),
    });
  }
  for (const [source, place] of [
    ["query", "query"],
    ["headers", "header"],
    ["cookies", "cookie"],
  ] as const) {
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
  if (parameters.length > 0) operation.parameters = parameters;
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
    // A form with files is multipart only (its files as `format: binary`); any form may be multipart.
    // A nested group is sent as `group[field]=…` (deepObject), which standard tools then produce.
    if (source === "form") {
      const encoding = nestedEncoding(schema);
      const form = encoding === undefined ? { schema } : { schema, encoding };
      if (!read.files) content[mediaType] = form;
      content["multipart/form-data"] = form;
      continue;
    }
    content[mediaType] = { schema };
  }
  if (Object.keys(content).length > 0) operation.requestBody = { required, content };
  const responses: Record<string, unknown> = {};
  responses[String(endpoint?.status ?? 200)] = success(endpoint);
  const errors: Declared[] = [
    ...middlewareErrors,
    // A body over the app's limit (or a part over its own) is refused before the endpoint runs.
    ...(params.form !== undefined || params.json !== undefined ? [PAYLOAD_TOO_LARGE] : []),
    ...(Object.keys(params) as (keyof ParamsDeclaration)[]).map((source) => ({
      name: PARAM_ERRORS[source],
      code: 400,
      payload: PARAM_ERROR_PAYLOAD,
    })),
    ...declaredErrors(endpoint?.errors as Record<string, ErrorClass<unknown>> | undefined),
  ];
  const byCode = new Map<number, Declared[]>();
  for (const error of errors) {
    const list = byCode.get(error.code) ?? [];
    if (!list.some((known) => known.name === error.name)) list.push(error);
    byCode.set(error.code, list);
  }
  for (const [code, list] of [...byCode].sort(([a], [b]) => a - b)) {
    const schemas = list.map(envelope);
    // Sent as the client's Accept asks: the envelope in JSON, or a line of text, or an HTML page.
    const content: Record<string, unknown> = {};
    for (const mediaType of ERROR_MEDIA_TYPES)
      content[mediaType] =
        mediaType === "application/json"
          ? { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } }
          : { schema: { type: "string" } };
    responses[String(code)] = { description: list.map((error) => error.name).join(", "), content };
  }
  operation.responses = responses;
  return operation;
}

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
    content[mediaType] = { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } };
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

// `encoding` for a form's nested groups (objects, or lists of them): deepObject, exploded.
function nestedEncoding(schema: Schema): Record<string, unknown> | undefined {
  const encoding: Record<string, unknown> = {};
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    if (isObject(property)) encoding[name] = { style: "deepObject", explode: true };
  }
  return Object.keys(encoding).length > 0 ? encoding : undefined;
}

function isObject(schema: Schema): boolean {
  return schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
}
