import type { Context } from "../context/context.ts";
import {
  type CompiledParams,
  compileParams,
  type ParamsDeclaration,
  parseParams,
} from "../params/parse-params.ts";
import { type Runnable, runnableMark } from "../router/handler.ts";
import { isView, type View } from "../view/define-view.ts";
import { defineErrors, type ErrorClasses, type ErrorDeclarations } from "./define-error.ts";
import { type EndpointInstance, EndpointRun } from "./endpoint-instance.ts";

/** A `before`/`after` callback: runs with the endpoint instance; its return value is ignored. */
export type EndpointCallback<TParams extends ParamsDeclaration, TErrors> = (
  ep: EndpointInstance<TParams, TErrors>,
) => unknown;

/** What `defineEndpoint` takes. */
export interface EndpointDefinition<TParams extends ParamsDeclaration, TErrors, TResult> {
  /** The parameters, by source: `path`, `query`, `form`, `json`. */
  readonly params?: TParams;
  /** The errors it may raise: `Name: code`, `{ code, message }`, `{ code, payload, message }`, or a shared class. */
  readonly errors?: ErrorDeclarations<TErrors>;
  /** Run in order after params are parsed, before `call`. */
  readonly before?: readonly EndpointCallback<TParams, TErrors>[];
  /** Run in order after `call` (skipped when something raised). */
  readonly after?: readonly EndpointCallback<TParams, TErrors>[];
  /** The business logic. Return a view (or a `Response`); anything else is ignored. */
  call(ep: EndpointInstance<TParams, TErrors>): TResult;
}

/** What an endpoint resolves to: the view to render, a `Response` to send, or nothing. */
export type EndpointResult = View | Response | undefined;

/** An endpoint: route it with `app.get(path, Endpoint)`, or run it on a context with `Endpoint.call(ctx)`. */
export interface Endpoint<TParams extends ParamsDeclaration = never, TErrors = unknown> extends Runnable {
  /** The params declaration. */
  readonly params: TParams | undefined;
  /** The declared error classes, for `instanceof` checks. */
  readonly errors: ErrorClasses<TErrors>;
  /** Runs the endpoint on a context; rejects with the parameter error or the declared error. */
  call(ctx: Context): Promise<EndpointResult>;
}

/**
 * Declares an endpoint: its parameters, its errors, callbacks and the business logic in `call`.
 *
 * @example
 * const GetUser = defineEndpoint({
 *   params: { path: { id: t.int32() } },
 *   errors: { UserNotFound: 404 },
 *   call(ep) {
 *     const user = users.get(ep.params.path.id);
 *     if (!user) throw new ep.errors.UserNotFound();
 *     return UserView(user);
 *   },
 * });
 * app.get("/users/:id", GetUser);
 */
export function defineEndpoint<
  TParams extends ParamsDeclaration = never,
  TErrors = Record<never, never>,
  TResult = unknown,
>(definition: EndpointDefinition<TParams, TErrors, TResult>): Endpoint<TParams, TErrors> {
  if (typeof definition.call !== "function") throw new TypeError("defineEndpoint needs a call(ep) function");
  const compiled = definition.params === undefined ? undefined : compileParams(definition.params);
  const errors = defineErrors(definition.errors) as ErrorClasses<unknown>;
  const before = (definition.before ?? []) as unknown as readonly Callback[];
  const after = (definition.after ?? []) as unknown as readonly Callback[];
  const call = definition.call as unknown as Callback;
  return Object.freeze({
    [runnableMark]: "endpoint" as const,
    params: definition.params,
    errors: errors as ErrorClasses<TErrors>,
    call: (ctx: Context) => run(ctx, compiled, errors, before, call, after),
  });
}

type Callback = (ep: EndpointRun) => unknown;

async function run(
  ctx: Context,
  compiled: CompiledParams | undefined,
  errors: ErrorClasses<unknown>,
  before: readonly Callback[],
  call: Callback,
  after: readonly Callback[],
): Promise<EndpointResult> {
  const ep = new EndpointRun(ctx, errors);
  if (compiled !== undefined) ep.params = await parseParams(compiled, ctx);
  // Await only what is a promise: a synchronous step costs no extra microtask.
  for (const callback of before) {
    const pending = callback(ep);
    if (pending instanceof Promise) await pending;
  }
  let result = call(ep);
  if (result instanceof Promise) result = await result;
  for (const callback of after) {
    const pending = callback(ep);
    if (pending instanceof Promise) await pending;
  }
  if (ep.chosenView !== undefined) return ep.chosenView;
  if (isView(result) || result instanceof Response) return result;
  return undefined;
}
