import type { View } from "../view/define-view.ts";
import type { Context, RegisteredEnv } from "./context.ts";
import type { Socket } from "./socket.ts";

/**
 * What a handler may return: a view, a `Response`, or nothing (it wrote `ctx.response`). Anything else
 * would be ignored, so the types refuse it (`() => "text"`), and at run time it is said once to the
 * app's logger.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: `void` lets `(ctx) => ctx.response.write(…)` through; `undefined` would not.
export type HandlerResult = void | Response | View | Promise<void | Response | View>;

/** A block route: gets the context; returns a view, a `Response`, or nothing. */
export type BlockHandler<TEnv = RegisteredEnv> = (ctx: Context<TEnv>) => HandlerResult;

/** An endpoint as a route handler (what `defineEndpoint` makes): it runs on a context. */
export interface Runnable {
  /** @ignore The router's way in: like `call`, but synchronous when the endpoint is, and unfiltered. */
  readonly [runKey]: (ctx: Context) => unknown;
  /** @ignore The path parameters the endpoint declares (source keys), checked against its routes. */
  readonly [pathKeysKey]: readonly string[];
  /**
   * @ignore Like `runKey`, with namespace callbacks around the endpoint's own: `before` after params
   * and before its own `before`s, `after` after `call` and before its own `after`s.
   */
  readonly [hooksKey]: (
    before: readonly ((ep: never) => unknown)[],
    after: readonly ((ep: never) => unknown)[],
  ) => (ctx: Context) => unknown;
  /** Runs the endpoint on a context; resolves to its result (a view, a `Response`, or nothing). */
  call(ctx: Context): Promise<unknown>;
}

/** A channel as a websocket route handler (what `defineChannel` makes): it takes over an open socket. */
export interface Connectable {
  /**
   * @ignore Runs the channel on an open socket; `report` logs unexpected errors with the request id;
   * `resumed`: a socket woken from hibernation (params and `before` run again, `onOpen` does not).
   * Returns what to do with an error a listener throws.
   */
  readonly [connectKey]: (
    socket: Socket,
    ctx: Context,
    report: (error: unknown) => void,
    resumed?: boolean,
  ) => (error: unknown) => void;
  /** @ignore The path parameters the channel declares (source keys), checked against its routes. */
  readonly [pathKeysKey]: readonly string[];
  /** The subprotocols it speaks, in order of preference (`Sec-WebSocket-Protocol`). */
  readonly protocols: readonly string[] | undefined;
}

/** Where an endpoint keeps what the router runs. */
export const runKey: unique symbol = Symbol.for("portico.run");
/** Where a channel keeps what the upgrade runs. */
export const connectKey: unique symbol = Symbol.for("portico.connect");
/** Where an endpoint keeps its run with namespace callbacks. */
export const hooksKey: unique symbol = Symbol.for("portico.hooks");
/** Where endpoints and channels keep their declared path parameters. */
export const pathKeysKey: unique symbol = Symbol.for("portico.path-keys");

/** An HTTP route handler: a block or an endpoint. */
export type Handler<TEnv = RegisteredEnv> = BlockHandler<TEnv> | Runnable;

/** A websocket block: runs once after the upgrade, with the socket and the context. */
export type SocketHandler<TEnv = RegisteredEnv> = (socket: Socket, ctx: Context<TEnv>) => unknown;

/** A websocket route handler: a block or a channel. */
export type WsHandler<TEnv = RegisteredEnv> = SocketHandler<TEnv> | Connectable;

/** Koa-style middleware: runs around the handler; `await next()` runs the rest of the chain. */
export type Middleware<TEnv = RegisteredEnv> = (ctx: Context<TEnv>, next: () => Promise<void>) => unknown;

/** True when a handler is an endpoint rather than a function. */
export function isRunnable(handler: unknown): handler is Runnable {
  return (
    typeof handler === "object" && handler !== null && typeof (handler as Runnable)[runKey] === "function"
  );
}

/** True when a websocket handler is a channel rather than a function. */
export function isConnectable(handler: unknown): handler is Connectable {
  return (
    typeof handler === "object" &&
    handler !== null &&
    typeof (handler as Connectable)[connectKey] === "function"
  );
}
