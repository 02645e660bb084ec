import type { Context } from "../context/context.ts";
import { pathKeysKey, type Runnable, runKey } from "../context/handler.ts";
import { runSteps, type Step } from "../context/run-steps.ts";
import { defineErrors, type ErrorClasses, type ErrorDeclarations } from "../errors/define-error.ts";
import { compileParams, type ParamsDeclaration, paramsStep } from "../params/parse-params.ts";
import { isView, type View } from "../view/define-view.ts";
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
  /** The business logic. Returns a view, a `Response`, or nothing (a plain object is a type error). */
  call(ep: EndpointInstance<TParams, TErrors>): TResult;
}

/** What an endpoint resolves to: the view to render, a `Response` to send, or nothing. */
export type EndpointResult = View | Response | undefined;

/** What `call` may return: a view, a `Response` or nothing, now or as a promise. */
// biome-ignore lint/suspicious/noConfusingVoidType: a `call` without `return` is typed `void`, not `undefined`.
export type CallResult = EndpointResult | void | Promise<EndpointResult | void>;

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
  TResult extends CallResult = CallResult,
>(definition: EndpointDefinition<TParams, TErrors, TResult>): Endpoint<TParams, TErrors> {
  if (typeof definition.call !== "function") throw new TypeError("defineEndpoint needs a call(ep) function");
  const errors = defineErrors(definition.errors) as ErrorClasses<unknown>;
  const compiled = definition.params === undefined ? undefined : compileParams(definition.params);
  // params, before…, call, after…: one list of steps, synchronous until one of them is not.
  const steps: Step<EndpointRun>[] = [
    ...(compiled === undefined ? [] : [paramsStep(compiled)]),
    ...((definition.before ?? []) as unknown as readonly Step<EndpointRun>[]),
    callStep(definition.call as unknown as (ep: EndpointRun) => unknown),
    ...((definition.after ?? []) as unknown as readonly Step<EndpointRun>[]),
  ];
  const run = (ctx: Context): unknown => {
    const ep = new EndpointRun(ctx, errors);
    const pending = runSteps(steps, ep);
    return pending === undefined ? ep.outcome() : pending.then(() => ep.outcome());
  };
  return Object.freeze({
    [runKey]: run,
    [pathKeysKey]: compiled?.pathKeys ?? [],
    params: definition.params,
    errors: errors as ErrorClasses<TErrors>,
    async call(ctx: Context): Promise<EndpointResult> {
      const outcome = await run(ctx);
      return isView(outcome) || outcome instanceof Response ? outcome : undefined;
    },
  });
}

function callStep(call: (ep: EndpointRun) => unknown): Step<EndpointRun> {
  return (ep) => {
    const value = call(ep);
    if (!(value instanceof Promise)) ep.returned = value;
    else
      return value.then((settled) => {
        ep.returned = settled;
      });
  };
}
