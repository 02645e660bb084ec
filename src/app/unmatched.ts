import type { Context } from "../context/context.ts";
import { methodNotAllowedError, notFoundError, upgradeRequiredError } from "../errors/http-error.ts";
import { ANY_METHOD, WS_METHOD } from "../router/route-table.ts";
import type { AppState } from "./app-state.ts";

/**
 * Answers a path no route matches for this method: 404 when no route (and no `notFound`) has
 * the path, 426 when only a websocket route has it, 204 with `Allow` for OPTIONS, else 405 with `Allow`.
 */
export function unmatched(state: AppState, ctx: Context): unknown {
  const { method, path } = ctx.request;
  const methods = state.table.methodsFor(path).filter((m) => m !== ANY_METHOD);
  const http = methods.filter((m) => m !== WS_METHOD);
  // A `notFound` handler (the app's or a namespace's) is routed to before this runs.
  if (methods.length === 0) throw notFoundError();
  if (http.length === 0) throw upgradeRequiredError();
  const allow = [...http, "OPTIONS"].join(", ");
  if (method === "OPTIONS") {
    ctx.response.status = 204;
    ctx.response.headers.set("allow", allow);
    return undefined;
  }
  throw methodNotAllowedError(allow);
}

/** Answers `OPTIONS *` (a question about the server, not a resource): 204 with every method the app routes. */
export function asterisk(state: AppState, ctx: Context): unknown {
  const methods = state.table.methods().filter((m) => m !== ANY_METHOD && m !== WS_METHOD);
  ctx.response.status = 204;
  ctx.response.headers.set("allow", [...new Set([...methods, "OPTIONS"])].join(", "));
  return undefined;
}
