import { type Context, contextFor, type ExecutionContext } from "../context/context.ts";
import { requestIdFor } from "../context/request-id.ts";
import { splitUrl } from "../context/request-info.ts";
import { methodNotAllowedError, notFoundError, upgradeRequiredError } from "../errors/http-error.ts";
import { PathParamsError, paramMessage } from "../errors/param-errors.ts";
import { isRunnable, type WsHandler } from "../router/handler.ts";
import { ANY_METHOD, WS_METHOD } from "../router/route-table.ts";
import { isUpgradeRequest, upgrade, wasUpgraded } from "../ws/upgrade.ts";
import type { AppRoute, AppState } from "./app-state.ts";
import { lastResortResponse, rescue } from "./rescue.ts";
import { runChain, runStep, type Terminal } from "./run-chain.ts";
import { toResponse } from "./to-response.ts";

/** Handles one request: routing, middleware, the handler, error rescue and the response. Never rejects. */
export async function dispatch(
  state: AppState,
  request: Request,
  env: unknown,
  executionContext: ExecutionContext | undefined,
): Promise<Response> {
  const target = splitUrl(request.url);
  const id = state.trustIncomingId
    ? requestIdFor(request.headers, true, state.idHeader)
    : crypto.randomUUID();
  const ctx = contextFor(request, target, id, env, executionContext, state.limits);
  const method = request.method;
  const terminal = (c: Context): unknown => route(state, c, method, target.path, env);
  if (state.root.middleware.length === 0) await runStep(state, ctx, terminal);
  else await runChain(state, ctx, [state.root], terminal);
  // Bun and the Node adapter answer a websocket handshake themselves; Bun wants `undefined` back.
  if (state.hasWebSockets && wasUpgraded(ctx)) return undefined as unknown as Response;
  try {
    return toResponse(ctx, state.idHeader, method === "HEAD");
  } catch (error) {
    // A renderer or the response itself failed (bad status, throwing view): rescue once more.
    await rescue(state, ctx, error);
    try {
      return toResponse(ctx, state.idHeader, method === "HEAD");
    } catch {
      const response = lastResortResponse();
      response.headers.set(state.idHeader, id);
      return response;
    }
  }
}

function route(state: AppState, ctx: Context, method: string, path: string, env: unknown): unknown {
  const table = state.table;
  if (state.hasWebSockets && method === "GET" && isUpgradeRequest(ctx.request.headers)) {
    const found = table.find(WS_METHOD, path);
    if (found !== undefined) {
      ctx.request.pathParams = decodeParams(found.params, state.limits.pathParamLength);
      const report = (error: unknown): void =>
        state.logger.error(`[portico] websocket of request ${ctx.request.id} failed`, error);
      return runRoute(state, ctx, found.route, (c) =>
        upgrade(c, found.route.handler as WsHandler<never>, env, report),
      );
    }
  }
  const found = table.find(method, path);
  if (found === undefined) return unmatched(state, ctx, method, path);
  ctx.request.pathParams = decodeParams(found.params, state.limits.pathParamLength);
  const handler = found.route.handler;
  const terminal: Terminal = isRunnable(handler)
    ? (c) => handler.call(c)
    : (handler as (c: Context) => unknown);
  return runRoute(state, ctx, found.route, terminal);
}

function runRoute(state: AppState, ctx: Context, appRoute: AppRoute, terminal: Terminal): unknown {
  return appRoute.scopes.length === 0 ? terminal(ctx) : runChain(state, ctx, appRoute.scopes, terminal);
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

const EMPTY_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

// Path parameters are matched encoded (so `%2F` stays inside its segment) and decoded once, here.
function decodeParams(raw: Record<string, string>, maxLength: number): Record<string, string> {
  let params: Record<string, string> | undefined;
  for (const name in raw) {
    params ??= {};
    const value = raw[name]!;
    if (value.length > maxLength) {
      throw new PathParamsError([
        { path: [name], message: paramMessage("path", [name], `is longer than ${maxLength} characters`) },
      ]);
    }
    if (value.indexOf("%") < 0) params[name] = value;
    else {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        throw new PathParamsError([
          {
            path: [name],
            message: paramMessage("path", [name], `has malformed percent-encoding "${value}"`),
          },
        ]);
      }
    }
  }
  return params ?? EMPTY_PARAMS;
}
