import type { Context } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import { isPending, later, type Pending, settled } from "../context/later.ts";
import type { Scope } from "../router/scope.ts";
import { isView } from "../view/define-view.ts";
import type { AppState } from "./app-state.ts";
import { rescue } from "./rescue.ts";

/** The innermost step of a chain: the route's handler, or what answers an unmatched request. */
export type Terminal = (ctx: Context) => unknown;

/**
 * Runs middleware (the scopes' lists, the app's first) around a terminal step. Each step's error
 * becomes the error response right where it is thrown, so the middleware around it still runs and
 * sees `ctx.error`. Synchronous chains complete synchronously; a returned promise never rejects.
 */
export function runChain(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  terminal: Terminal,
): void | Pending<void> {
  return runFrom(state, ctx, scopes, 0, 0, terminal);
}

function runFrom(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  scopeIndex: number,
  index: number,
  terminal: Terminal,
): void | Pending<void> {
  let s = scopeIndex;
  let i = index;
  while (s < scopes.length && i >= scopes[s]!.middleware.length) {
    s++;
    i = 0;
  }
  if (s === scopes.length) return runStep(state, ctx, scopes, terminal);
  const middleware = scopes[s]!.middleware[i] as Middleware;
  // 0: next() not called; 1: called, the rest of the chain still running; 2: the rest has finished.
  let downstream = 0;
  const next = (): Promise<void> => {
    if (downstream !== 0)
      return Promise.reject(new Error("next() was called more than once by one middleware"));
    downstream = 1;
    const rest = runFrom(state, ctx, scopes, s, i + 1, terminal);
    if (rest === undefined) {
      downstream = 2;
      return Promise.resolve();
    }
    // The middleware gets a promise; marked on a side branch, so the chain itself gets no extra step.
    const done = settled(rest);
    done.then(() => {
      downstream = 2;
    });
    return done;
  };
  // A middleware that settles while the rest of the chain it started still runs did not await (or
  // return) next(): the handler would answer after the response went out, as an empty 200.
  const finished = (): void => {
    if (downstream === 1) throw new Error(unawaitedNext(middleware, s, i));
  };
  return runStep(state, ctx, scopes, (c) => middleware(c, next), finished);
}

function unawaitedNext(middleware: Middleware, scope: number, index: number): string {
  const name = middleware.name ? `"${middleware.name}"` : `#${index + 1} of scope ${scope + 1} (anonymous)`;
  return `middleware ${name} finished before the next() it called: await next() (or return it)`;
}

// Runs a step and records what it returned: a `Response` is sent as is, a view is rendered (unless
// one is already set). An error is rescued here, as is one `done` throws once the step is done.
function runStep(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  step: Terminal,
  done?: () => void,
): void | Pending<void> {
  let result: unknown;
  try {
    result = step(ctx);
  } catch (error) {
    return rescue(state, ctx, error, scopes);
  }
  if (isPending(result)) {
    return later(
      result,
      (value) => finish(state, ctx, scopes, value, done),
      (error: unknown) => rescue(state, ctx, error, scopes),
    );
  }
  return finish(state, ctx, scopes, result, done);
}

function finish(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  result: unknown,
  done: (() => void) | undefined,
): void | Promise<void> {
  try {
    done?.();
  } catch (error) {
    return rescue(state, ctx, error, scopes);
  }
  record(state, ctx, result);
}

function record(state: AppState, ctx: Context, result: unknown): void {
  if (result === undefined) return;
  if (result instanceof Response) ctx.response.raw = result;
  else if (isView(result)) {
    if (ctx.response.view === undefined) ctx.response.view = result;
  } else ignored(state, ctx, result);
}

// A handler or middleware returned what is neither a view, a `Response` nor nothing: ignored (the types
// refuse it), and said once per method and path (at most 64 of them), since it is nearly always a
// mistake (`() => "text"`: the client gets an empty 200).
function ignored(state: AppState, ctx: Context, result: unknown): void {
  const where = `${ctx.request.method} ${ctx.request.path}`;
  let said = saidIgnored.get(state);
  if (said === undefined) {
    said = new Set();
    saidIgnored.set(state, said);
  }
  if (state.logger.warn === undefined || said.has(where) || said.size >= 64) return;
  said.add(where);
  const kind = result === null ? "null" : typeof result === "object" ? "an object" : `a ${typeof result}`;
  state.logger.warn(
    `[portico] ${where}: a handler returned ${kind}, which is ignored; write ctx.response, or return a view or a Response`,
  );
}

const saidIgnored = new WeakMap<AppState, Set<string>>();
