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
  // before…, call, after…: one list, with the index of `call` to know which value is the result.
  const steps = [
    ...((definition.before ?? []) as unknown as readonly Callback[]),
    definition.call as unknown as Callback,
    ...((definition.after ?? []) as unknown as readonly Callback[]),
  ];
  const callIndex = definition.before?.length ?? 0;
  const runner = (ctx: Context): EndpointResult | Promise<EndpointResult> =>
    run(ctx, compiled, errors, steps, callIndex);
  const endpoint = Object.freeze({
    [runnableMark]: "endpoint" as const,
    params: definition.params,
    errors: errors as ErrorClasses<TErrors>,
    call(ctx: Context): Promise<EndpointResult> {
      try {
        return Promise.resolve(runner(ctx));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  });
  runners.set(endpoint, runner);
  return endpoint;
}

const runners = new WeakMap<object, (ctx: Context) => unknown>();

/**
 * The router's way to run an endpoint: like `call`, but a synchronous endpoint with synchronous
 * params answers without a promise (and throws instead of rejecting).
 */
export function runnerOf(endpoint: Runnable): (ctx: Context) => unknown {
  return runners.get(endpoint) ?? ((ctx) => endpoint.call(ctx));
}

type Callback = (ep: EndpointRun) => unknown;

function run(
  ctx: Context,
  compiled: CompiledParams | undefined,
  errors: ErrorClasses<unknown>,
  steps: readonly Callback[],
  callIndex: number,
): EndpointResult | Promise<EndpointResult> {
  const ep = new EndpointRun(ctx, errors);
  if (compiled !== undefined) {
    const params = parseParams(compiled, ctx);
    if (params instanceof Promise) {
      return params.then((parsed) => {
        ep.params = parsed;
        return runSteps(ep, steps, 0, callIndex, undefined);
      });
    }
    ep.params = params;
  }
  return runSteps(ep, steps, 0, callIndex, undefined);
}

// Runs the steps from `start`; continues asynchronously only from the first step that returns a promise.
function runSteps(
  ep: EndpointRun,
  steps: readonly Callback[],
  start: number,
  callIndex: number,
  result: unknown,
): EndpointResult | Promise<EndpointResult> {
  let returned = result;
  for (let i = start; i < steps.length; i++) {
    const value = steps[i]!(ep);
    if (value instanceof Promise) {
      return value.then((settled) =>
        runSteps(ep, steps, i + 1, callIndex, i === callIndex ? settled : returned),
      );
    }
    if (i === callIndex) returned = value;
  }
  if (ep.chosenView !== undefined) return ep.chosenView;
  if (isView(returned) || returned instanceof Response) return returned;
  return undefined;
}
