import type { Context } from "../context/context.ts";
import type { Limits } from "../context/limits.ts";
import type { Scope } from "../router/create-router.ts";
import type { Handler, Middleware, WsHandler } from "../router/handler.ts";
import type { RouteTable } from "../router/route-table.ts";

/** Where the app reports failures (500s, failing error handlers, websocket errors). */
export interface Logger {
  /** Reports a failure, with the error when there is one. */
  error(message: string, error?: unknown): void;
}

/** Customises error responses: return a `Response` or a view, or nothing to keep the default rendering. */
export type ErrorHandler<TEnv = unknown> = (error: unknown, ctx: Context<TEnv>) => unknown;

/** Answers requests no route matches (the status is preset to 404). */
export type NotFoundHandler<TEnv = unknown> = (ctx: Context<TEnv>) => unknown;

/** A route as the dispatcher keeps it: the step that runs it is made once, at registration. */
export interface AppRoute {
  readonly handler: Handler<never> | WsHandler<never>;
  readonly scopes: readonly Scope[];
  readonly run: (ctx: Context) => unknown;
}

/** Everything the request cycle needs to know about an app. */
export interface AppState {
  readonly table: RouteTable<AppRoute>;
  readonly root: Scope;
  readonly verbose: boolean;
  readonly trustIncomingId: boolean;
  readonly idHeader: string;
  readonly limits: Limits;
  readonly logger: Logger;
  errorHandler: ErrorHandler<never> | undefined;
  notFoundHandler: NotFoundHandler<never> | undefined;
  hasWebSockets: boolean;
  /** Routes a request: made once per app, so that dispatch allocates no closure for it. */
  readonly route: (ctx: Context) => unknown;
}

/** The middleware of a scope chain, as the chain runner walks it. */
export type MiddlewareList = readonly Middleware<never>[];
