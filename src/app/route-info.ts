// What `app.routes()` lists of a registered route: its method, path, handler, name, the middleware
// around it and what it says of itself — read by `openapi()` and `asyncapi()`.
import type { MatchedRoute } from "../context/context.ts";
import type { Handler, Middleware, WsHandler } from "../context/handler.ts";
import { mergeDocs, type RouteDoc } from "../context/route-doc.ts";
import type { ErrorRenderingOptions } from "../errors/rendering.ts";
import type { RouteRecord } from "../router/create-router.ts";
import { ANY_METHOD, WS_METHOD } from "../router/route-table.ts";

/** A registered route, as `app.routes()` lists it. */
export interface RouteInfo extends MatchedRoute {
  /** `GET`, `POST`, …; `ALL` for `all()`, `WS` for a websocket route (see `websocket`). */
  readonly method: string;
  /** True for a websocket route (`ws()`, a channel); an HTTP route whose method is `WS` has `false`. */
  readonly websocket: boolean;
  /** The full path pattern, prefixes included (`/api/users/:id`). */
  readonly path: string;
  /** The block, endpoint or channel. */
  readonly handler: Handler<never> | WsHandler<never>;
  /** The route's name, when it has one (`defineRoutes` keys, `route(…, { name })`). */
  readonly name?: string;
  /** The middleware that runs around it, outermost first (the app's, then each namespace's). */
  readonly middleware: readonly Middleware<never>[];
  /** What its namespaces and its registration say of it for the OpenAPI document (merged). */
  readonly doc: RouteDoc;
  /** How its namespaces render its errors (`on(…, { errors })`), outermost first, over the app's. */
  readonly errors: readonly ErrorRenderingOptions[];
}

/** The listing of a registered route. */
export function routeInfo(record: RouteRecord): RouteInfo {
  return Object.freeze({
    method: record.method === ANY_METHOD ? "ALL" : record.method === WS_METHOD ? "WS" : record.method,
    websocket: record.method === WS_METHOD,
    path: record.path,
    handler: record.handler,
    ...(record.name === undefined ? {} : { name: record.name }),
    middleware: Object.freeze(record.scopes.flatMap((scope) => scope.middleware)),
    errors: Object.freeze(
      record.scopes.flatMap((scope) => (scope.errors === undefined ? [] : [scope.errors])),
    ),
    // Read when asked: a namespace may be documented after its routes are added.
    get doc() {
      return mergeDocs([...record.scopes.map((scope) => scope.doc), record.doc]);
    },
  });
}
