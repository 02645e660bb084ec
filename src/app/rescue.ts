import type { Context } from "../context/context.ts";
import { nonceIfAny } from "../context/csp-nonce.ts";
import { isHttpError } from "../errors/http-error.ts";
import { isErrorStatus, renderError } from "../errors/render-error.ts";
import { renderingFor } from "../errors/rendering.ts";
import { appendVary } from "../http/vary.ts";
import type { Scope } from "../router/scope.ts";
import { isView } from "../view/define-view.ts";
import type { AppState } from "./app-state.ts";

/**
 * Turns an error thrown while handling a request into the response to send: the error handlers of
 * the route's namespaces, nearest first, up to the app's `onError` (the root scope's); the first that
 * returns a `Response` or a view, or writes `ctx.response`, answers; else the default rendering.
 * Never throws.
 */
export function rescue(
  state: AppState,
  ctx: Context,
  error: unknown,
  scopes: readonly Scope[],
): void | Promise<void> {
  ctx.error = error;
  const response = ctx.response;
  response.view = undefined;
  response.raw = undefined;
  const handlers: ((error: unknown, ctx: Context) => unknown)[] = [];
  for (let i = scopes.length - 1; i >= 0; i--) {
    const own = scopes[i]!.onError;
    if (own) handlers.push(own as (error: unknown, ctx: Context) => unknown);
  }
  if (handlers.length > 0) return rescueWithHandlers(state, ctx, error, handlers, scopes);
  renderDefault(state, ctx, error, scopes);
}

async function rescueWithHandlers(
  state: AppState,
  ctx: Context,
  error: unknown,
  handlers: readonly ((error: unknown, ctx: Context) => unknown)[],
  scopes: readonly Scope[],
): Promise<void> {
  const response = ctx.response;
  for (const handler of handlers) {
    response.status = isHttpError(error) && isErrorStatus(error.code) ? error.code : 500;
    // What the failed handler wrote is not the error's answer; what this handler writes is.
    response.body = null;
    try {
      let result = handler(error, ctx);
      if (result instanceof Promise) result = await result;
      if (result instanceof Response) {
        response.raw = result;
        return;
      }
      if (isView(result)) {
        response.view = result;
        return;
      }
      // A handler that wrote the response (`ctx.response.write(…)`, a view or a Response set on it)
      // and returned nothing answers with what it wrote.
      if (response.body !== null || response.view !== undefined || response.raw !== undefined) return;
    } catch (handlerError) {
      state.logger.error(`[portico] onError handler failed for request ${ctx.request.id}`, handlerError);
    }
  }
  renderDefault(state, ctx, error, scopes);
}

/**
 * The default rendering, written into ctx.response so that it is built (and sent) like any response,
 * keeping the headers middleware set before the error. Logs anything that is not a declared HTTP error.
 */
export function renderDefault(
  state: AppState,
  ctx: Context,
  error: unknown,
  scopes: readonly Scope[] = [],
): void {
  if (!(isHttpError(error) && isErrorStatus(error.code))) {
    state.logger.error(`[portico] request ${ctx.request.id} failed`, error);
  }
  const response = ctx.response;
  try {
    const accept = ctx.request.header("accept");
    const rendered = renderError(
      error,
      accept,
      ctx.request.id,
      state.verbose,
      nonceIfAny(ctx),
      scopes.length > 1 ? renderingFor(state.errorRendering, scopes) : state.errorRendering,
    );
    response.status = rendered.status;
    response.body = rendered.body;
    response.headers.set("content-type", rendered.contentType);
    // The format follows the client's Accept: caches must keep one copy per Accept.
    appendVary(response.headers, "Accept");
    for (const [name, value] of Object.entries(rendered.headers ?? {})) response.headers.set(name, value);
  } catch (renderFailure) {
    state.logger.error(`[portico] rendering the error of request ${ctx.request.id} failed`, renderFailure);
    response.raw = lastResortResponse();
  }
}

/** A 500 that cannot fail to build. */
export function lastResortResponse(): Response {
  return new Response("500 Internal Server Error", {
    status: 500,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
