import type { Context } from "../context/context.ts";
import { hooksKey, pathKeysKey, type Runnable, runKey } from "../context/handler.ts";
import { later, settled } from "../context/later.ts";
import type { RouteDoc } from "../context/route-doc.ts";
import { runSteps, type Step } from "../context/run-steps.ts";
import { defineErrors, type ErrorClasses, type ErrorDeclarations } from "../errors/define-error.ts";
import { compileParams, type ParamsDeclaration, paramsStep } from "../params/parse-params.ts";
import { isView, type View, type ViewConstructor, viewMark } from "../view/define-view.ts";
import { type EndpointInstance, EndpointRun } from "./endpoint-instance.ts";

/** A `before`/`after` callback: runs with the endpoint instance; its return value is ignored. */
export type EndpointCallback<TParams extends ParamsDeclaration, TErrors> = (
  ep: EndpointInstance<TParams, TErrors>,
) => unknown;

/** The views an endpoint declares it answers with: one view constructor, or several. */
// biome-ignore lint/suspicious/noExplicitAny: any view constructor, whatever its data type.
export type ViewDeclaration = ViewConstructor<any, unknown> | readonly ViewConstructor<any, unknown>[];

/** The views a declaration stands for. */
export type DeclaredView<TViews> = TViews extends readonly (infer TConstructor)[]
  ? TConstructor extends ViewConstructor<infer TData, infer TJson>
    ? View<TData, TJson>
    : never
  : TViews extends ViewConstructor<infer TData, infer TJson>
    ? View<TData, TJson>
    : never;

/** What a `call` with views declared settles to. */
// biome-ignore lint/suspicious/noConfusingVoidType: a `call` without `return` is typed `void`.
export type ViewOutcome<TViews> = DeclaredView<TViews> | Response | undefined | void;

/** What `call` may return with views declared: one of them, a `Response` or nothing, now or as a promise. */
export type ViewCallResult<TViews> = ViewOutcome<TViews> | Promise<ViewOutcome<TViews>>;

/** What `defineEndpoint` takes. */
export interface EndpointDefinition<TParams extends ParamsDeclaration, TErrors, TResult, TViews = never> {
  /** The parameters, by source: `path`, `query`, `headers`, `cookies`, `form`, `json`. */
  readonly params?: TParams;
  /** The errors it may raise: `Name: code`, `{ code, message }`, `{ code, payload, message }`, or a shared class. */
  readonly errors?: ErrorDeclarations<TErrors>;
  /** Run in order after params are parsed, before `call`. */
  readonly before?: readonly EndpointCallback<TParams, TErrors>[];
  /** Run in order after `call` (skipped when something raised). */
  readonly after?: readonly EndpointCallback<TParams, TErrors>[];
  /**
   * The views it answers with (documented in OpenAPI, typed in the client): `call` may then return
   * only these, a `Response` or nothing.
   */
  readonly view?: TViews;
  /** The success status (default 200): set before `call`, which may still change it. */
  readonly status?: number;
  /** What the OpenAPI document says of it: summary, description, tags, deprecated, hidden, other answers. */
  readonly doc?: RouteDoc;
  /** The business logic. Returns a view, a `Response`, or nothing (a plain object is a type error). */
  call(ep: EndpointInstance<TParams, TErrors>): TResult;
}

/** What an endpoint resolves to: the view to render, a `Response` to send, or nothing. */
export type EndpointResult = View | Response | undefined;

/** What `call` may return: a view, a `Response` or nothing, now or as a promise. */
// biome-ignore lint/suspicious/noConfusingVoidType: a `call` without `return` is typed `void`, not `undefined`.
export type CallResult = EndpointResult | void | Promise<EndpointResult | void>;

/** An endpoint: route it with `app.get(path, Endpoint)`, or run it on a context with `Endpoint.call(ctx)`. */
export interface Endpoint<TParams extends ParamsDeclaration = never, TErrors = unknown, TViews = never>
  extends Runnable {
  /** The params declaration. */
  readonly params: TParams | undefined;
  /** The declared error classes, for `instanceof` checks. */
  readonly errors: ErrorClasses<TErrors>;
  /** The declared views, as a list (empty when none is declared). */
  readonly views: readonly ViewConstructor<unknown>[];
  /** The success status (default 200). */
  readonly status: number;
  /** What the OpenAPI document says of it (`{}` when nothing is said). */
  readonly doc: RouteDoc;
  /** @ignore The declared views (types only). */
  readonly "~views"?: TViews;
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
  const TViews extends ViewDeclaration = never,
  TResult extends [TViews] extends [never] ? CallResult : ViewCallResult<TViews> = [TViews] extends [never]
    ? CallResult
    : ViewCallResult<TViews>,
>(definition: EndpointDefinition<TParams, TErrors, TResult, TViews>): Endpoint<TParams, TErrors, TViews> {
  if (typeof definition.call !== "function") throw new TypeError("defineEndpoint needs a call(ep) function");
  const status = definition.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 299) {
    throw new RangeError(`defineEndpoint: status must be a success status (200–299), got ${status}`);
  }
  const declared = definition.view;
  const views = (
    declared === undefined ? [] : Array.isArray(declared) ? declared : [declared]
  ) as readonly ViewConstructor<unknown>[];
  for (const view of views) {
    if (typeof view !== "function" || !(viewMark in view)) {
      throw new TypeError(
        "defineEndpoint: view must be a view constructor made by defineView (or a list of them)",
      );
    }
  }
  const errors = defineErrors(definition.errors) as ErrorClasses<unknown>;
  const compiled = definition.params === undefined ? undefined : compileParams(definition.params);
  // params, before…, call, after…: one list of steps, synchronous until one of them is not; a
  // namespace's callbacks go before the endpoint's own.
  const compile = (
    outerBefore: readonly Step<EndpointRun>[],
    outerAfter: readonly Step<EndpointRun>[],
  ): ((ctx: Context) => unknown) => {
    const steps: Step<EndpointRun>[] = [
      ...(compiled === undefined ? [] : [paramsStep(compiled)]),
      ...outerBefore,
      ...((definition.before ?? []) as unknown as readonly Step<EndpointRun>[]),
      callStep(definition.call as unknown as (ep: EndpointRun) => unknown),
      ...outerAfter,
      ...((definition.after ?? []) as unknown as readonly Step<EndpointRun>[]),
    ];
    return (ctx) => {
      if (status !== 200) ctx.response.status = status;
      const ep = new EndpointRun(ctx, errors);
      const pending = runSteps(steps, ep);
      return pending === undefined ? ep.outcome() : pending.next(() => ep.outcome());
    };
  };
  const run = compile([], []);
  return Object.freeze({
    [runKey]: run,
    [hooksKey]: (before: readonly ((ep: never) => unknown)[], after: readonly ((ep: never) => unknown)[]) =>
      compile(before as readonly Step<EndpointRun>[], after as readonly Step<EndpointRun>[]),
    [pathKeysKey]: compiled?.pathKeys ?? [],
    params: definition.params,
    errors: errors as ErrorClasses<TErrors>,
    views: Object.freeze([...views]),
    status,
    doc: definition.doc ?? {},
    async call(ctx: Context): Promise<EndpointResult> {
      const outcome = await settled(run(ctx));
      return isView(outcome) || outcome instanceof Response ? outcome : undefined;
    },
  });
}

function callStep(call: (ep: EndpointRun) => unknown): Step<EndpointRun> {
  return (ep) => {
    const value = call(ep);
    if (!(value instanceof Promise)) ep.returned = value;
    else
      return later(value, (result) => {
        ep.returned = result;
      });
  };
}
