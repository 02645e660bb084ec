import { Context, type ExecutionContext } from "../context/context.ts";
import { dictionary } from "../context/dictionary.ts";
import { isPending, type Later, later, type Pending } from "../context/later.ts";
import { nextRequestId, requestIdFor } from "../context/request-id.ts";
import { RequestInfo } from "../context/request-info.ts";
import { badRequestError } from "../errors/http-error.ts";
import { hostOf, originFormOf } from "../fast-path/fast-path.ts";
import { checkOriginForm } from "../http/origin-form.ts";
import { checkTarget, type RequestTarget } from "../http/request-target.ts";
import { ResponseHeaders } from "../http/response-headers.ts";
import { type ResponseParts, toResponse } from "../http/response-parts.ts";
import { WS_METHOD } from "../router/route-table.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { isUpgradeRequest } from "../ws/upgrade.ts";
import type { AppRoute, AppState, NamespaceNotFound } from "./app-state.ts";
import { startApp } from "./lifecycle.ts";
import { lastResortResponse, renderDefault } from "./rescue.ts";
import { respond } from "./respond.ts";
import { runChain } from "./run-chain.ts";

/**
 * Handles one request, in this order:
 * 1. check what it asks for — method, Host, target — and refuse it (400) before the app if invalid;
 * 2. give it an id and a context;
 * 3. find its route (router/route-table.ts), or what answers an unmatched path;
 * 4. run the middleware around the route's step (run-chain.ts: endpoint, block, or websocket upgrade);
 *    an error becomes its response right where it is thrown (rescue.ts), so middleware still sees it;
 * 5. build the response as parts (respond.ts), which the runtime's side writes.
 * Synchronous work gets its parts synchronously; the promise, when there is one, never rejects.
 */
export function dispatch(
  state: AppState,
  request: Request,
  env: unknown,
  executionContext: ExecutionContext | undefined,
  runtime: Runtime,
): ResponseParts | Pending<ResponseParts> {
  if (!state.started) return afterStart(state, request, env, executionContext, runtime);
  const host = hostOf(request);
  const form = originFormOf(request);
  const target =
    (form !== undefined ? checkOriginForm(form.scheme, host, form.target, request.method) : undefined) ??
    checkTarget(request.url, host, request.method, runtime.scheme);
  const id = state.trustIncomingId ? requestIdFor(request.headers, true, state.idHeader) : nextRequestId();
  if (typeof target === "string") return refuse(state, request, id, target, env, executionContext, runtime);
  const ctx = new Context(
    new RequestInfo(request, target, id, NO_PARAMS, state.clientAddress, runtime, env),
    env,
    executionContext,
    state.limits,
  );
  const contexts = state.contexts;
  if (contexts !== undefined) return contexts.run(ctx, () => answer(state, ctx, target.asterisk));
  return answer(state, ctx, target.asterisk);
}

// Steps 3–5 for a request given its context (inside `currentContext()`'s store, when the app keeps one).
function answer(state: AppState, ctx: Context, asterisk: boolean): ResponseParts | Pending<ResponseParts> {
  const route = asterisk ? state.asterisk : findRoute(state, ctx);
  const pending = runChain(state, ctx, route.scopes, route.run);
  const scopes = route.scopes;
  if (pending !== undefined) return later(pending, () => handOver(state, ctx, respond(state, ctx, scopes)));
  return handOver(state, ctx, respond(state, ctx, scopes));
}

/** {@link dispatch} for a runtime that takes a `Response` (`app.fetch`): the parts made one, here only. */
export function dispatchFetch(
  state: AppState,
  request: Request,
  env: unknown,
  executionContext: ExecutionContext | undefined,
  runtime: Runtime,
): Response | Promise<Response> {
  const parts = dispatch(state, request, env, executionContext, runtime);
  if (!isPending(parts)) return responseOf(state, parts);
  return later(parts, (answer) => responseOf(state, answer)).promise;
}

// The parts were checked as they were built; should the runtime still refuse them, `app.fetch` answers
// a logged 500 rather than throwing.
function responseOf(state: AppState, parts: ResponseParts): Response {
  try {
    return toResponse(parts);
  } catch (error) {
    const id = parts.headers.get(state.idHeader) ?? "";
    state.logger.error(`[portico] the response of request ${id} could not be made`, error);
    const response = lastResortResponse();
    if (id !== "") response.headers.set(state.idHeader, id);
    return response;
  }
}

// A request that comes before the app's `onStart()` hooks have run (an app served without an adapter's
// `serve()`, which runs them first) waits for them; if they failed, it is answered 503.
function afterStart(
  state: AppState,
  request: Request,
  env: unknown,
  executionContext: ExecutionContext | undefined,
  runtime: Runtime,
): Later<ResponseParts> {
  return later(
    startApp(state),
    () => dispatch(state, request, env, executionContext, runtime),
    () => {
      const headers = new ResponseHeaders();
      headers.setOwn("content-type", "text/plain; charset=utf-8");
      return { status: 503, headers, body: "The app failed to start" };
    },
  );
}

// The response goes to the runtime: a body made whole ends the request (a later abort of the runtime's
// signal is not the client leaving; a streamed one may still see the client leave).
function handOver(
  state: AppState,
  ctx: Context,
  parts: ResponseParts | Pending<ResponseParts>,
): ResponseParts | Pending<ResponseParts> {
  if (isPending(parts)) return later(parts, (made) => handOver(state, ctx, made) as ResponseParts);
  const built = ctx.response;
  const body = built.raw !== undefined ? built.raw.body : built.body;
  if (!(body instanceof ReadableStream)) ctx.answered();
  ctx.handedOver(parts, state.logger);
  return parts;
}

const NO_PARAMS = Object.freeze(dictionary<string>());
const INVALID_TARGET: RequestTarget = {
  url: "http://invalid/",
  path: "/",
  query: "",
  rewritten: false,
  asterisk: false,
};

function findRoute(state: AppState, ctx: Context): AppRoute {
  const { method, path } = ctx.request;
  try {
    const found =
      (state.hasWebSockets && method === "GET" && isUpgradeRequest(ctx.request)
        ? state.table.find(WS_METHOD, path)
        : undefined) ?? state.table.find(method, path);
    if (found === undefined) return unmatchedRoute(state, path);
    ctx.request.routed(found);
    return found.route;
  } catch (error) {
    // A parameter the router cannot decode: answered like any error, inside the app's middleware.
    return {
      scopes: [state.root],
      run: () => {
        throw error;
      },
    };
  }
}

// A path routed for other methods is answered (405, 426, OPTIONS) inside the middleware of its own
// routes' scopes, so that a namespace's middleware (its CORS preflights, say) sees it too.
// A path no route has at all is answered by the nearest namespace's `notFound` (inside that
// namespace's middleware), else by the app's.
function unmatchedRoute(state: AppState, path: string): AppRoute {
  for (const method of state.table.methodsFor(path)) {
    const other = state.table.find(method, path);
    if (other !== undefined) return { scopes: other.route.scopes, run: state.unmatched.run };
  }
  let nearest: NamespaceNotFound | undefined;
  for (const candidate of state.notFounds) {
    const { prefix } = candidate;
    const under =
      prefix === "/" || path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
    if (under && (nearest === undefined || prefix.length >= nearest.prefix.length)) nearest = candidate;
  }
  return nearest?.route ?? state.unmatched;
}

// A request whose method, Host or target is invalid never reaches middleware or routes.
function refuse(
  state: AppState,
  request: Request,
  id: string,
  reason: string,
  env: unknown,
  executionContext: ExecutionContext | undefined,
  runtime: Runtime,
): ResponseParts {
  const info = new RequestInfo(request, INVALID_TARGET, id, NO_PARAMS, state.clientAddress, runtime, env);
  const ctx = new Context(info, env, executionContext, state.limits);
  ctx.response.headers.set("connection", "close");
  renderDefault(state, ctx, badRequestError(reason));
  return respond(state, ctx, [state.root]) as ResponseParts;
}
