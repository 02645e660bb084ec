// What a route (`route()`, the verbs, `ws()`) and a namespace (`on()`) may be given beside their handler.
import type { Middleware } from "../context/handler.ts";
import type { RouteDoc } from "../context/route-doc.ts";
import type { ErrorRenderingOptions } from "../errors/rendering.ts";

/** Options of `route()`. */
export interface RouteOptions {
  /** Names the route (unique in the app): the OpenAPI `operationId`, the client's method name. */
  readonly name?: string;
  /** What the OpenAPI document says of it (summary, tags, deprecated, hidden, other answers…). */
  readonly doc?: RouteDoc;
  /** Middleware around this route only, inside its namespaces' (`{ use: [requireUser] }`). */
  readonly use?: readonly Middleware<never>[];
}

/** Options of `on()`. */
export interface NamespaceOptions {
  /** What the OpenAPI document says of every route under it (tags add up; deprecated and hidden stay). */
  readonly doc?: RouteDoc;
  /** How its routes' errors are rendered, over the app's (`{ format: "json", body, paramsStatus: 422 }`). */
  readonly errors?: ErrorRenderingOptions;
}
