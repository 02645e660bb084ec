import type { RouteInfo } from "../app/route-info.ts";
import { isRunnable } from "../context/handler.ts";
import {
  type DeclaringMiddleware,
  type HeaderDoc,
  mergeDocs,
  type ResponseDoc,
  type RouteDoc,
  type SecurityDeclaration,
} from "../context/route-doc.ts";
import type { Endpoint } from "../endpoint/define-endpoint.ts";
import type { ErrorClass } from "../errors/define-error.ts";
import { DEFAULT_RENDERING, type ErrorRendering } from "../errors/render-error.ts";
import { renderingFor } from "../errors/rendering.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import { toWords } from "../wire/contract.ts";
import { Components } from "./components.ts";
import { type Declared, declaredErrors } from "./error-responses.ts";
import { operationOf } from "./operation.ts";
import { renamed, templates } from "./path-templates.ts";
import { describeWebsocket, WEBSOCKET_EXTENSION } from "./websockets.ts";

/** Options of {@link openapi}. */
export interface OpenApiOptions {
  /** The document's `info` (title and version required). */
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  /** Where the API is served (`[{ url: "https://api.example/v1" }]`). */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
  /**
   * The tags' descriptions, in the order viewers show them (`[{ name: "users", description: "…" }]`);
   * tags routes use without being listed here follow, by name only.
   */
  readonly tags?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly externalDocs?: { readonly url: string; readonly description?: string };
  }[];
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

/**
 * The OpenAPI 3.1 document of an app, from its declarations: every route `app.routes()` lists (named
 * ones get their name as `operationId` and, in words, as `summary`), path, query, header and cookie
 * params as `parameters`, form and JSON bodies as `requestBody`, each declared view per media type as
 * the success response, and every declared error — the endpoint's, its middleware's (`csrf()`,
 * `bodyLimit()`, …) and the parameter errors — under its status code in Portico's error envelope (each
 * envelope once, under `components.schemas`). What middleware declares with `declaring()` adds security
 * schemes, headers and answers (`etag()`'s 304); what routes, namespaces and endpoints say with `doc`
 * adds words, tags, `deprecated`, other answers, or hides them. Every answer documents the request id
 * header. Built once, from the routes registered so far; no registry and no TypeScript compiler at run
 * time. A websocket route is described under its path's `x-portico-websocket` (its upgrade's
 * parameters, close codes and messages; `asyncapi()` makes a document of them); `all()` routes are left
 * out (OpenAPI cannot describe them).
 *
 * @example
 * const doc = openapi(app, { info: { title: "Users", version: "1.0.0" } });
 * app.get("/openapi.json", () => Response.json(doc));
 */
export function openapi(
  app: {
    routes(): readonly RouteInfo[];
    readonly requestIdHeader?: string;
    readonly errorRendering?: ErrorRendering;
  },
  options: OpenApiOptions,
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  const components = new Components(warn);
  const tags = new Set<string>();
  // Templates by shape (`/same/{}`): OpenAPI holds one path per shape, whatever its parameters' names.
  const byShape = new Map<string, string>();
  for (const route of app.routes()) {
    if (route.method === "ALL") continue;
    if (route.websocket) {
      const doc = mergeDocs([route.doc, (route.handler as { doc?: RouteDoc }).doc]);
      if (doc.hidden) continue;
      const socket = describeWebsocket(route);
      const { template: _template, ...description } = socket;
      paths[socket.template] ??= {};
      paths[socket.template]![WEBSOCKET_EXTENSION] = { ...describe(route.name, doc, 0), ...description };
      continue;
    }
    const endpoint = isRunnable(route.handler)
      ? (route.handler as unknown as Endpoint<ParamsDeclaration>)
      : undefined;
    const doc = mergeDocs([route.doc, endpoint?.doc]);
    if (doc.hidden) continue;
    const declared = middlewareDeclarations(route);
    for (const tag of doc.tags ?? []) tags.add(tag);
    for (const [index, variant] of templates(route.path).entries()) {
      const shape = variant.template.replace(/\{[^}]*\}/g, "{}");
      const template = byShape.get(shape) ?? variant.template;
      byShape.set(shape, template);
      const operation: Record<string, unknown> = {
        ...describe(route.name, doc, index),
        ...operationOf({
          endpoint,
          pathNames: renamed(variant, template),
          middlewareErrors: declared.errors,
          headers: declared.headers,
          responses: { ...declared.responses, ...doc.responses },
          doc,
          requestIdHeader: app.requestIdHeader ?? "x-request-id",
          errorRendering: renderingFor(
            app.errorRendering ?? DEFAULT_RENDERING,
            route.errors.map((errors) => ({ errors })),
          ),
          components,
        }),
      };
      const security = securityOf(declared.security, components);
      if (security !== undefined) operation.security = security;
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
  const parts = components.toJSON();
  return {
    openapi: "3.1.0",
    info: { ...options.info },
    ...(options.servers ? { servers: options.servers.map((server) => ({ ...server })) } : {}),
    ...tagsOf(options.tags ?? [], tags),
    paths,
    ...(parts === undefined ? {} : { components: parts }),
  };
}

// The document's tags: those described first, as given, then the others routes use.
function tagsOf(described: NonNullable<OpenApiOptions["tags"]>, used: Set<string>): { tags?: object[] } {
  const listed = new Set(described.map((tag) => tag.name));
  const tags = [
    ...described.map((tag) => ({ ...tag })),
    ...[...used].filter((name) => !listed.has(name)).map((name) => ({ name })),
  ];
  return tags.length > 0 ? { tags } : {};
}

// What a route's middleware declares for its method: errors, headers, other answers, credentials.
function middlewareDeclarations(route: RouteInfo): {
  errors: Declared[];
  headers: Record<string, HeaderDoc>;
  responses: Record<number, string | ResponseDoc>;
  security: SecurityDeclaration[];
} {
  const declared = {
    errors: [] as Declared[],
    headers: {} as Record<string, HeaderDoc>,
    responses: {} as Record<number, string | ResponseDoc>,
    security: [] as SecurityDeclaration[],
  };
  for (const middleware of route.middleware as readonly Partial<DeclaringMiddleware<object>>[]) {
    if (middleware.declaresFor !== undefined && !middleware.declaresFor(route.method)) continue;
    declared.errors.push(
      ...declaredErrors(middleware.errors as Record<string, ErrorClass<unknown>> | undefined),
    );
    Object.assign(declared.headers, middleware.headers);
    Object.assign(declared.responses, middleware.responses);
    if (middleware.security !== undefined) declared.security.push(middleware.security);
  }
  return declared;
}

// The operation's words: operationId (unique: an optional group's other templates get `name__2`, …),
// summary (the name in words unless given), description, tags, deprecated, external docs.
function describe(name: string | undefined, doc: RouteDoc, index: number): Record<string, unknown> {
  const summary = doc.summary ?? (name === undefined ? undefined : sentence(name));
  return {
    ...(name === undefined ? {} : { operationId: index === 0 ? name : `${name}__${index + 1}` }),
    ...(summary === undefined ? {} : { summary }),
    ...(doc.description === undefined ? {} : { description: doc.description }),
    ...(doc.tags?.length ? { tags: [...doc.tags] } : {}),
    ...(doc.deprecated ? { deprecated: true } : {}),
    ...(doc.externalDocs === undefined ? {} : { externalDocs: { ...doc.externalDocs } }),
  };
}

/** A route's name as a summary: `getUserById` → `Get user by id`; acronyms stay (`listJSONFeeds` → `List JSON feeds`). */
export function sentence(name: string): string {
  const words = toWords(name).split(" ").filter(Boolean);
  return words
    .map((word, i) => {
      const kept = word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase();
      return i === 0 ? kept.charAt(0).toUpperCase() + kept.slice(1) : kept;
    })
    .join(" ");
}

// The operation's `security`: every declaring middleware's schemes together; when one of them lets a
// request without credentials through, the requirement without its schemes is offered too.
function securityOf(
  declarations: readonly SecurityDeclaration[],
  components: Components,
): Record<string, string[]>[] | undefined {
  if (declarations.length === 0) return undefined;
  const all: Record<string, string[]> = {};
  const required: Record<string, string[]> = {};
  for (const { schemes, optional } of declarations) {
    for (const [name, scheme] of Object.entries(schemes)) {
      if (!components.securityScheme(name, scheme)) continue;
      all[name] = [];
      if (!optional) required[name] = [];
    }
  }
  const optional = Object.keys(required).length < Object.keys(all).length;
  return optional ? [all, required] : [all];
}
