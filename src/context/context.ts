import { hostOf } from "../fast-path/fast-path.ts";
import { checkTarget } from "../http/request-target.ts";
import { dictionary } from "./dictionary.ts";
import { defaultLimits, type Limits } from "./limits.ts";
import { randomUUID } from "./request-id.ts";
import { RequestInfo } from "./request-info.ts";
import { ResponseState } from "./response-state.ts";

/** What Workers (and other hosts) pass to `fetch` as the third argument. */
export interface ExecutionContext {
  /** Keeps the host working on `promise` after the response is sent. */
  waitUntil(promise: Promise<unknown>): void;
  /** Workers: forward the request to the origin if the Worker throws. */
  passThroughOnException?(): void;
}

/** Everything a handler gets for one request. */
export class Context<TEnv = unknown> {
  /** The request: raw `Request`, method, url, path, query, headers, path params and id. */
  readonly request: RequestInfo;
  /** The response being built: status, headers, view and body. */
  readonly response: ResponseState = new ResponseState();
  /** The runtime's bindings (Workers `env`; `undefined` elsewhere unless the adapter passes some). */
  readonly env: TEnv;
  /** The app's limits, which params parsing and websockets enforce. */
  readonly limits: Limits;
  /** The error being rescued, once one was thrown (middleware can see it after `await next()`). */
  error: unknown = undefined;
  readonly #executionContext: ExecutionContext | undefined;
  #state: Record<string, unknown> | undefined = undefined;

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

  /** Per-request data for middleware and handlers to share. */
  get state(): Record<string, unknown> {
    this.#state ??= {};
    return this.#state;
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
export interface CreateContextOptions<TEnv = unknown> {
  /** The path parameters (already decoded), as the router would set them. */
  readonly pathParams?: Record<string, string>;
  /** Runtime bindings. */
  readonly env?: TEnv;
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
export function createContext<TEnv = unknown>(
  request: Request,
  options: CreateContextOptions<TEnv> = {},
): Context<TEnv> {
  const target = checkTarget(request.url, hostOf(request), request.method);
  if (typeof target === "string") throw new TypeError(target);
  const pathParams = dictionary<string>();
  for (const [name, value] of Object.entries(options.pathParams ?? {})) pathParams[name] = value;
  const info = new RequestInfo(request, target, options.id ?? randomUUID(), pathParams);
  return new Context(info, options.env as TEnv, options.executionContext, options.limits ?? defaultLimits);
}
