import type { Context, MatchedRoute, RegisteredEnv } from "../context/context.ts";
import type { Limits } from "../context/limits.ts";
import type { ClientLookup } from "../context/request-info.ts";
import type { ErrorRendering } from "../errors/render-error.ts";
import type { TopicHub } from "../pubsub/hub.ts";
import type { RouteTable } from "../router/route-table.ts";
import type { Scope } from "../router/scope.ts";
import type { AsyncStorage } from "../runtime/runtime.ts";
import type { SocketController } from "../ws/socket-controller.ts";

/** Where the app reports failures (500s, failing error handlers, websocket errors) and mistakes. */
export interface Logger {
  /** Reports a failure, with the error when there is one. */
  error(message: string, error?: unknown): void;
  /** Reports a likely mistake in the app (an endpoint returning a value that is ignored). */
  warn?(message: string): void;
  /** Reports what recovered (the topics' backplane connected again). Default: `warn`, if any. */
  info?(message: string): void;
}

/** The logger of an app given none: the console. */
export const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error),
  warn: (message) => console.warn(message),
  info: (message) => console.info(message),
};

/** Customises error responses: return a `Response` or a view, or nothing to keep the default rendering. */
export type ErrorHandler<TEnv = RegisteredEnv> = (error: unknown, ctx: Context<TEnv>) => unknown;

/** Answers requests no route matches (the status is preset to 404). */
export type NotFoundHandler<TEnv = RegisteredEnv> = (ctx: Context<TEnv>) => unknown;

/** A route as dispatch runs it: its middleware scopes (the app's first) and the step made at registration. */
export interface AppRoute {
  readonly scopes: readonly Scope[];
  readonly run: (ctx: Context) => unknown;
  /** What `ctx.route` says of it (a registered route's listing), if it is one. */
  readonly matched?: MatchedRoute;
}

/** A namespace's `notFound`: the prefix it covers, and the route that answers there. */
export interface NamespaceNotFound {
  readonly prefix: string;
  readonly route: AppRoute;
}

/** Everything the request cycle needs to know about an app. */
export interface AppState {
  readonly table: RouteTable<AppRoute>;
  /** The app's own middleware (`app.use`), around every request. */
  readonly root: Scope;
  /** What answers a path no route matches (404, 405, 426, or OPTIONS with `Allow`). */
  readonly unmatched: AppRoute;
  /** What answers `OPTIONS *`. */
  readonly asterisk: AppRoute;
  readonly verbose: boolean;
  /** How errors are sent: the format when `Accept` names none, the app's own body, the params status. */
  readonly errorRendering: ErrorRendering;
  readonly trustIncomingId: boolean;
  readonly idHeader: string;
  readonly limits: Limits;
  readonly logger: Logger;
  /** Finds `ctx.request.ip`: the peer, through the app's trusted proxies. */
  readonly clientAddress: ClientLookup;
  /** The app's topics (websocket pub/sub). */
  readonly hub: TopicHub;
  /** The app's open websockets (`app.close()` closes them with 1001). */
  readonly sockets: Set<SocketController>;
  /** What `app.onStart()` registered, run once before the first request is answered. */
  readonly starters: (() => unknown)[];
  /** The run of `starters`, once begun. */
  starting: Promise<void> | undefined;
  /** True once `starters` have all run (at once when there are none): requests no longer wait. */
  started: boolean;
  /** What `app.onClose()` registered, run by `app.close()` once its sockets and backplane are closed. */
  readonly closers: (() => unknown)[];
  /** The namespaces' `notFound` handlers. */
  readonly notFounds: NamespaceNotFound[];
  hasWebSockets: boolean;
  /** Where `currentContext()` finds a request's context (`createApp({ asyncContext: true })`). */
  readonly contexts: AsyncStorage | undefined;
}
