import { hostOf } from "../fast-path/fast-path.ts";
import { checkTarget } from "../http/request-target.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { dictionary } from "./dictionary.ts";
import { defaultLimits, type Limits } from "./limits.ts";
import { nextRequestId } from "./request-id.ts";
import { type MatchedRoute, RequestInfo } from "./request-info.ts";

export type { MatchedRoute } from "./request-info.ts";

import { type PartsTransformOf, ResponseState } from "./response-state.ts";
import { type Session, sessionOf } from "./session.ts";

/**
 * Rewrites the built response (compression, ETags): gets the `Response` with its full body (also for
 * HEAD; the body is dropped afterwards), returns the one to send.
 */
export type ResponseTransform = (response: Response, ctx: Context<unknown>) => Response | Promise<Response>;

/**
 * Rewrites the built response as plain parts (status, headers, body: a `Uint8Array` when its bytes are
 * known), without a `Response` being built for it; `etag()` and `compress()` are written so.
 */
export type PartsTransform = PartsTransformOf<Context<unknown>>;

/** What Workers (and other hosts) pass to `fetch` as the third argument. */
export interface ExecutionContext {
  /** Keeps the host working on `promise` after the response is sent. */
  waitUntil(promise: Promise<unknown>): void;
  /** Workers: forward the request to the origin if the Worker throws. */
  passThroughOnException?(): void;
}

/**
 * Register the app's types once, and every context, endpoint and channel sees them:
 *
 * ```ts
 * declare module "portico" {           // "@portico/portico" with JSR
 *   interface Register {
 *     env: { DB: D1Database };         // ctx.env, ep.context.env
 *     state: { user?: User };          // ctx.state
 *     session: { userId: string };     // ctx.session.data (portico/session)
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: it is empty until an app augments it.
export interface Register {}

/** The runtime bindings type: `Register["env"]` when registered, else `unknown`. */
export type RegisteredEnv = Register extends { readonly env: infer TEnv } ? TEnv : unknown;

/** The per-request state type: `Register["state"]` when registered, else any record. */
export type RegisteredState = Register extends { readonly state: infer TState }
  ? TState
  : Record<string, unknown>;

/** The session type: `Session<Register["session"]>` when registered, else `Session`. */
export type RegisteredSession = Register extends { readonly session: infer TData } ? Session<TData> : Session;

/** Everything a handler gets for one request. */
export class Context<TEnv = RegisteredEnv> {
  /** The request: raw `Request`, method, url, path, query, headers, path params and id. */
  readonly request: RequestInfo;
  /** The response being built: status, headers, view and body. */
  readonly response: ResponseState<Context<unknown>> = new ResponseState();
  /** The runtime's bindings (Workers `env`; `undefined` elsewhere unless the adapter passes some). */
  readonly env: TEnv;
  /** The limits params parsing, `readBody` and websockets enforce: the app's, or a `bodyLimit()`'s for its routes. */
  limits: Limits;
  /** The error being rescued, once one was thrown (middleware can see it after `await next()`). */
  error: unknown = undefined;
  readonly #executionContext: ExecutionContext | undefined;
  #state: RegisteredState | undefined = undefined;
  #signal: AbortSignal | undefined = undefined;
  #abortSources: AbortSignal[] | undefined = undefined;
  #answered = false;
  #handedOver: ((response: ResponseParts) => void)[] | undefined = undefined;

  /** Builds a context; use {@link createContext} in tests. */
  constructor(
    request: RequestInfo,
    env: TEnv,
    executionContext: ExecutionContext | undefined,
    limits: Limits,
  ) {
    this.request = request;
    this.env = env;
    this.#executionContext = executionContext;
    this.limits = limits;
  }

  /** What the runtime serving this request can do (peer address, upgrades, compression). */
  get runtime(): Runtime {
    return this.request.runtime;
  }

  /**
   * Pass it to the I/O a handler starts (`fetch(url, { signal: ctx.signal })`): aborted when the client
   * goes away, and when any signal given to {@link Context.abortOn} aborts (a `timeout()`'s deadline).
   * Made on first read.
   */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const own = this.#clientGone();
      this.#signal = this.#abortSources ? AbortSignal.any([own, ...this.#abortSources]) : own;
    }
    return this.#signal;
  }

  /**
   * Marks the response as wholly handed to the runtime (the core calls it): an abort of the runtime's
   * signal after that is not the client leaving (Deno aborts `request.signal` after every response).
   */
  answered(): void {
    this.#answered = true;
  }

  /**
   * The route the request matched (`{ method, path, name }`, as `app.routes()` lists it: the pattern with
   * its prefixes, what a tracer or a metric names it by), or `undefined` when none did (a 404, a 405, a
   * request refused before routing). Middleware sees it before `next()`.
   */
  get route(): MatchedRoute | undefined {
    return this.request.matchedRoute;
  }

  /**
   * Runs `callback` with the response once it is handed to the runtime (its body may still be
   * streaming), after every response transform: what `logger()` reports (a 304 from `etag()`), and
   * what the request left behind (a streamed upload the handler never read).
   */
  whenHandedOver(callback: (response: ResponseParts) => void): void {
    if (this.#handedOver === undefined) this.#handedOver = [callback];
    else this.#handedOver.push(callback);
  }

  /**
   * The response was handed to the runtime (the core calls it): runs the `whenHandedOver` callbacks,
   * each error logged (the response is on its way: nothing can change it any more).
   */
  handedOver(response: ResponseParts, logger: { error(message: string, error?: unknown): void }): void {
    const callbacks = this.#handedOver;
    if (callbacks === undefined) return;
    this.#handedOver = undefined;
    for (const callback of callbacks) {
      try {
        callback(response);
      } catch (error) {
        logger.error(`[portico] after the response of request ${this.request.id}`, error);
      }
    }
  }

  // The runtime's signal, minus the aborts that only say the response is complete.
  #clientGone(): AbortSignal {
    const runtimeSignal = this.request.raw.signal;
    const controller = new AbortController();
    if (this.#answered) return controller.signal;
    if (runtimeSignal.aborted) controller.abort(runtimeSignal.reason);
    else
      runtimeSignal.addEventListener(
        "abort",
        () => {
          if (!this.#answered) controller.abort(runtimeSignal.reason);
        },
        { once: true },
      );
    return controller.signal;
  }

  /**
   * Makes `ctx.signal` abort when `signal` does too (middleware such as `timeout()` use it). Cheap
   * until `ctx.signal` is read: the signals are combined then.
   */
  abortOn(signal: AbortSignal): void {
    if (this.#signal !== undefined) this.#signal = AbortSignal.any([this.#signal, signal]);
    else if (this.#abortSources === undefined) this.#abortSources = [signal];
    else this.#abortSources.push(signal);
  }

  /** Per-request data for middleware and handlers to share (typed by `Register["state"]`). */
  get state(): RegisteredState {
    this.#state ??= {} as RegisteredState;
    return this.#state;
  }

  /**
   * The request's session, opened by `app.use(session({ secret }))` from `portico/session` (a
   * `TypeError` without it), typed by `Register["session"]` (or use `sessions.of(ctx)`, typed by the
   * middleware's schema).
   */
  get session(): RegisteredSession {
    const session = sessionOf(this);
    if (session === undefined)
      throw new TypeError(
        "ctx.session needs the session middleware: app.use(session({ secret })) from portico/session",
      );
    return session as RegisteredSession;
  }

  /** Keeps work going after the response is sent (Workers' `waitUntil`; elsewhere the promise just runs). */
  waitUntil(promise: Promise<unknown>): void {
    if (this.#executionContext) this.#executionContext.waitUntil(promise);
    else
      promise.catch((error: unknown) => {
        console.error(`[portico] waitUntil task of request ${this.request.id} failed:`, error);
      });
  }
}

/** Options for {@link createContext}. */
export interface CreateContextOptions<TEnv = RegisteredEnv> {
  /** The path parameters (already decoded), as the router would set them. */
  readonly pathParams?: Record<string, string>;
  /** Runtime bindings. */
  readonly env?: TEnv;
  /** The client's address (`ctx.request.ip`). */
  readonly ip?: string;
  /** The request id; a random UUID v4 when left out. */
  readonly id?: string;
  /** Limits; the safe defaults when left out. */
  readonly limits?: Limits;
  /** The host's execution context (Workers). */
  readonly executionContext?: ExecutionContext;
}

/**
 * Builds a context outside of a server, to run an endpoint directly in a test.
 *
 * @example
 * const ctx = createContext(new Request("http://localhost/users/42"), { pathParams: { id: "42" } });
 * const view = await GetUser.call(ctx);
 */
export function createContext<TEnv = RegisteredEnv>(
  request: Request,
  options: CreateContextOptions<TEnv> = {},
): Context<TEnv> {
  const target = checkTarget(request.url, hostOf(request), request.method);
  if (typeof target === "string") throw new TypeError(target);
  const pathParams = dictionary<string>();
  for (const [name, value] of Object.entries(options.pathParams ?? {})) pathParams[name] = value;
  const ip = options.ip;
  const info = new RequestInfo(
    request,
    target,
    options.id ?? nextRequestId(),
    pathParams,
    ip === undefined ? undefined : { address: () => ip },
  );
  return new Context(info, options.env as TEnv, options.executionContext, options.limits ?? defaultLimits);
}
