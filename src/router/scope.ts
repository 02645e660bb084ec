// A namespace's hooks: the middleware, the endpoint callbacks and the handlers around the routes
// registered under it (an app, a router or a namespace made with `on`).
import type { Context, RegisteredEnv } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import type { RouteDoc } from "../context/route-doc.ts";
import type { EndpointHelpers } from "../endpoint/endpoint-instance.ts";
import type { ErrorRenderingOptions } from "../errors/rendering.ts";

/**
 * Runs before or after the `call` of every endpoint of a namespace, with the endpoint instance (what
 * every endpoint offers: context, request, headers, status; raise shared errors made by `defineError`).
 */
export type NamespaceCallback = (ep: EndpointHelpers<unknown>) => unknown;

/** Handles an error thrown under a namespace: a `Response` or a view, or nothing for the next handler out. */
export type ScopeErrorHandler<TEnv = RegisteredEnv> = (error: unknown, ctx: Context<TEnv>) => unknown;

/** Answers the unmatched paths under a namespace's prefix (the status is preset to 404). */
export type ScopeNotFoundHandler<TEnv = RegisteredEnv> = (ctx: Context<TEnv>) => unknown;

/** A namespace, router or app: the middleware and hooks around the routes registered under it. */
export interface Scope {
  readonly middleware: Middleware<never>[];
  /** Run before every endpoint's own `before` callbacks (outer namespaces first). */
  readonly before: NamespaceCallback[];
  /** Run after `call`, before the endpoint's own `after` callbacks (outer namespaces first). */
  readonly after: NamespaceCallback[];
  /** The error handler of this namespace, if it has one. */
  onError?: ScopeErrorHandler<never> | undefined;
  /** What the OpenAPI document says of every route under it (tags, deprecated, hidden…). */
  doc?: RouteDoc | undefined;
  /** How its routes' errors are rendered, over the app's and outer namespaces' (checked when given). */
  errors?: ErrorRenderingOptions | undefined;
}

/**
 * How many namespace callbacks were ever added, in any app: an endpoint's route remakes its run only
 * when this moved, instead of counting its scopes' callbacks on every request.
 */
export let callbackEpoch = 0;

/** Says that a namespace callback was added (routes remake their runs). */
export function callbackAdded(): void {
  callbackEpoch++;
}

/** The method a namespace's `notFound` is recorded under (never a request's method). */
export const NOT_FOUND_METHOD = "#not-found";

/** A fresh scope. */
export function newScope(): Scope {
  return { middleware: [], before: [], after: [] };
}

/** The scope of one route's own middleware (`route(…, { use })`). */
export function routeScope(use: readonly Middleware<never>[]): Scope {
  const scope = newScope();
  scope.middleware.push(...use);
  return scope;
}
