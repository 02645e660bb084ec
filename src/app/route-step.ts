import type { Context } from "../context/context.ts";
import {
  type Handler,
  hooksKey,
  isConnectable,
  isRunnable,
  pathKeysKey,
  type Runnable,
  runKey,
  type WsHandler,
} from "../context/handler.ts";
import { isPending, later } from "../context/later.ts";
import { WS_METHOD } from "../router/route-table.ts";
import { callbackEpoch, type Scope } from "../router/scope.ts";
import { isView } from "../view/define-view.ts";
import { upgrade } from "../ws/upgrade.ts";
import type { AppState } from "./app-state.ts";
import type { Terminal } from "./run-chain.ts";

/**
 * The step that runs a route's handler, made once at registration: an endpoint's steps, a block, or a
 * websocket upgrade. Also checks that the handler's declared path parameters are in the pattern.
 */
export function routeStep(
  state: AppState,
  method: string,
  pattern: string,
  names: readonly string[],
  handler: Handler<never> | WsHandler<never>,
  scopes: readonly Scope[],
): Terminal {
  if (isRunnable(handler) || isConnectable(handler))
    checkPathKeys(handler[pathKeysKey], names, method, pattern);
  if (isConnectable(handler) || method === WS_METHOD) {
    const ws = handler as WsHandler<never>;
    return notGuardedByBefore(state, `websocket ${pattern}`, scopes, (ctx) =>
      upgrade(ctx, ws, state.logger, state.hub, state.sockets),
    );
  }
  if (!isRunnable(handler))
    return notGuardedByBefore(state, `${method} ${pattern}`, scopes, handler as Terminal);
  const runWithHooks = withNamespaceCallbacks(handler, scopes);
  const where = `${method} ${pattern}`;
  let warned = false;
  // `call` may return a view, a `Response` or nothing; anything else is ignored (the types refuse
  // it): said once per route, since it is nearly always a forgotten view.
  const check = (outcome: unknown): unknown => {
    if (outcome !== undefined && !warned && !isView(outcome) && !(outcome instanceof Response)) {
      warned = true;
      state.logger.warn?.(
        `[portico] ${where}: call() returned ${kindOf(outcome)}, which is ignored; return a view (or a Response)`,
      );
    }
    return isView(outcome) || outcome instanceof Response ? outcome : undefined;
  };
  return (ctx: Context) => {
    const outcome = runWithHooks()(ctx);
    return isPending(outcome) ? later(outcome, check) : check(outcome);
  };
}

// The endpoint's run with its namespaces' before/after callbacks, outermost first. Callbacks may be
// added after the route (`r.get(…); r.before(…)`): the run is remade when any was added since.
function withNamespaceCallbacks(
  endpoint: Runnable,
  scopes: readonly Scope[],
): () => (ctx: Context) => unknown {
  let run = endpoint[runKey];
  let seen = -1;
  return () => {
    if (seen !== callbackEpoch) {
      seen = callbackEpoch;
      const before = scopes.flatMap((scope) => scope.before);
      const after = scopes.flatMap((scope) => scope.after);
      run = before.length + after.length === 0 ? endpoint[runKey] : endpoint[hooksKey](before, after);
    }
    return run;
  };
}

// Namespace `before` callbacks run for endpoints only: a block or websocket route under a namespace
// that has some is said once (at its first request, as callbacks may be added after the routes), since
// a guard written there leaves it open. `r.use()` guards every route.
function notGuardedByBefore(
  state: AppState,
  where: string,
  scopes: readonly Scope[],
  step: Terminal,
): Terminal {
  if (state.logger.warn === undefined) return step;
  let checked = false;
  return (ctx) => {
    if (!checked) {
      checked = true;
      if (scopes.some((scope) => scope.before.length > 0)) {
        state.logger.warn?.(
          `[portico] ${where} is not an endpoint: its namespace's before() callbacks do not run for it. ` +
            "Guard it with r.use(), which runs for every route.",
        );
      }
    }
    return step(ctx);
  };
}

function checkPathKeys(
  declared: readonly string[],
  names: readonly string[],
  method: string,
  pattern: string,
): void {
  const missing = declared.filter((key) => !names.includes(key));
  if (missing.length === 0) return;
  const has = names.length === 0 ? "no parameters" : names.map((name) => `:${name}`).join(", ");
  throw new TypeError(
    `${method === WS_METHOD ? "websocket" : method} ${pattern}: the handler declares path parameter ` +
      `${missing.map((key) => `"${key}"`).join(", ")}, which the pattern does not have (it has ${has})`,
  );
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "a plain object";
  return `a ${typeof value}`;
}
