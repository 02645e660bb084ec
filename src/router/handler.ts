import type { Context } from "../context/context.ts";
import type { Socket } from "../ws/socket.ts";
import type { SocketController } from "../ws/socket-controller.ts";

/** A block route: gets the context; may return a view or a `Response`, anything else is ignored. */
export type BlockHandler<TEnv = unknown> = (ctx: Context<TEnv>) => unknown;

/** An endpoint as a route handler (what `defineEndpoint` makes): it runs on a context. */
export interface Runnable {
  /** @ignore */
  readonly [runnableMark]: "endpoint";
  /** Runs the endpoint on a context; resolves to its result (a view, a `Response`, or nothing). */
  call(ctx: Context): Promise<unknown>;
}

/** A channel as a websocket route handler (what `defineChannel` makes): it takes over an open socket. */
export interface Connectable {
  /** @ignore */
  readonly [runnableMark]: "channel";
  /**
   * @ignore Runs the channel on an open socket; `report` logs unexpected errors with the request id.
   */
  connect(socket: SocketController, ctx: Context, report: (error: unknown) => void): void;
}

/** Marks endpoints and channels, so that the router tells them from block handlers. */
export const runnableMark: unique symbol = Symbol.for("portico.runnable");

/** An HTTP route handler: a block or an endpoint. */
export type Handler<TEnv = unknown> = BlockHandler<TEnv> | Runnable;

/** A websocket block: runs once after the upgrade, with the socket and the context. */
export type SocketHandler<TEnv = unknown> = (socket: Socket, ctx: Context<TEnv>) => unknown;

/** A websocket route handler: a block or a channel. */
export type WsHandler<TEnv = unknown> = SocketHandler<TEnv> | Connectable;

/** Koa-style middleware: runs around the handler; `await next()` runs the rest of the chain. */
export type Middleware<TEnv = unknown> = (ctx: Context<TEnv>, next: () => Promise<void>) => unknown;

/** True when a handler is an endpoint rather than a function. */
export function isRunnable(handler: unknown): handler is Runnable {
  return (
    typeof handler === "object" && handler !== null && (handler as Runnable)[runnableMark] === "endpoint"
  );
}

/** True when a websocket handler is a channel rather than a function. */
export function isConnectable(handler: unknown): handler is Connectable {
  return (
    typeof handler === "object" && handler !== null && (handler as Connectable)[runnableMark] === "channel"
  );
}
