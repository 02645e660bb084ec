import { type Context, contextFor, type ExecutionContext } from "../context/context.ts";
import { randomUUID, requestIdFor } from "../context/request-id.ts";
import { runnerOf } from "../endpoint/define-endpoint.ts";
import { methodNotAllowedError, notFoundError, upgradeRequiredError } from "../errors/http-error.ts";
import { type Handler, isRunnable, type WsHandler } from "../router/handler.ts";
import { ANY_METHOD, WS_METHOD } from "../router/route-table.ts";
import { isUpgradeRequest, upgrade, wasUpgraded } from "../ws/upgrade.ts";
import type { AppState } from "./app-state.ts";
import { lastResortResponse, rescue } from "./rescue.ts";
import { runChain, runStep, type Terminal } from "./run-chain.ts";
import { toResponse } from "./to-response.ts";

/**
 * Handles one request: routing, middleware, the handler, error rescue and the response. A request
 * whose handler and middleware are synchronous gets its `Response` synchronously (runtimes serve that
 * without a promise round trip); the promise, when there is one, never rejects.
 */
export function dispatch(
  state: AppState,
  request: Request,
  env: unknown,
  executionContext: ExecutionContext | undefined,
): Response | Promise<Response> {
  const id = state.trustIncomingId ? requestIdFor(request.headers, true, state.idHeader) : randomUUID();
  const ctx = contextFor(request, id, env, executionContext, state.limits);
  const pending =
    state.root.middleware.length === 0
      ? runStep(state, ctx, state.route)
      : runChain(state, ctx, [state.root], state.route);
  if (pending instanceof Promise) return pending.then(() => finish(state, ctx));
  return finish(state, ctx);
}

function finish(state: AppState, ctx: Context): Response | Promise<Response> {
  // Bun and the Node adapter answer a websocket handshake themselves; Bun wants `undefined` back.
  if (state.hasWebSockets && wasUpgraded(ctx)) return undefined as unknown as Response;
  const head = ctx.request.method === "HEAD";
  try {
    return toResponse(ctx, state.idHeader, head);
  } catch (error) {
    // A renderer or the response itself failed (bad status, throwing view): rescue once more.
    const rescued = rescue(state, ctx, error);
    return rescued instanceof Promise
      ? rescued.then(() => lastTry(state, ctx, head))
      : lastTry(state, ctx, head);
  }
}

function lastTry(state: AppState, ctx: Context, head: boolean): Response {
  try {
    return toResponse(ctx, state.idHeader, head);
  } catch {
    const response = lastResortResponse();
    response.headers.set(state.idHeader, ctx.request.id);
    return response;
  }
}

/** Finds the route for a request and runs it (inside its scopes' middleware); the unmatched answers otherwise. */
export function route(state: AppState, ctx: Context): unknown {
  const table = state.table;
  const { method, path } = ctx.request;
  let found =
    state.hasWebSockets && method === "GET" && isUpgradeRequest(ctx.request.headers)
      ? table.find(WS_METHOD, path)
      : undefined;
  found ??= table.find(method, path);
  if (found === undefined) return unmatched(state, ctx, method, path);
  ctx.request.pathParams = found.params;
  const appRoute = found.route;
  return appRoute.scopes.length === 0
    ? appRoute.run(ctx)
    : runChain(state, ctx, appRoute.scopes, appRoute.run);
}

/** The step that runs a route's handler: an endpoint's `call`, a block, or a websocket upgrade. */
export function routeStep(
  state: AppState,
  method: string,
  handler: Handler<never> | WsHandler<never>,
): Terminal {
  if (method === WS_METHOD) return (ctx) => upgrade(ctx, handler as WsHandler<never>, ctx.env, state.logger);
  if (isRunnable(handler)) return runnerOf(handler);
  return handler as Terminal;
}

function unmatched(state: AppState, ctx: Context, method: string, path: string): unknown {
  const methods = state.table.methodsFor(path).filter((m) => m !== ANY_METHOD);
  const http = methods.filter((m) => m !== WS_METHOD);
  if (methods.length === 0) {
    if (!state.notFoundHandler) throw notFoundError();
    ctx.response.status = 404;
    return (state.notFoundHandler as (c: Context) => unknown)(ctx);
  }
  if (http.length === 0) throw upgradeRequiredError();
  const allow = [...http, "OPTIONS"].join(", ");
  if (method === "OPTIONS") {
    ctx.response.status = 204;
    ctx.response.headers.set("allow", allow);
    return undefined;
  }
  throw methodNotAllowedError(allow);
}
