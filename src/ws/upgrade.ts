import type { Context } from "../context/context.ts";
import { badRequestError, HttpError } from "../errors/http-error.ts";
import { isConnectable, type WsHandler } from "../router/handler.ts";
import { upgradeShimFor } from "./shims.ts";
import type { Socket } from "./socket.ts";
import { SocketController } from "./socket-controller.ts";

const upgraded = new WeakSet<Context>();

/** True when the request asks for a websocket (`Upgrade: websocket`). */
export function isUpgradeRequest(headers: Headers): boolean {
  const upgrade = headers.get("upgrade");
  return upgrade !== null && upgrade.toLowerCase() === "websocket";
}

/** True when the runtime itself answered this request's handshake (Bun, the Node adapter). */
export function wasUpgraded(ctx: Context): boolean {
  return upgraded.has(ctx);
}

const KEY = /^[A-Za-z0-9+/]{22}==$/;

/**
 * Accepts a websocket upgrade for a ws route and starts its session once the socket is open:
 * a block runs once with `(socket, ctx)`, a channel takes over the socket. Returns the runtime's
 * handshake response, or `undefined` when the runtime answered it itself.
 */
export function upgrade(
  ctx: Context,
  handler: WsHandler<never>,
  env: unknown,
  logger: { error(message: string, error?: unknown): void },
): Response | undefined {
  const report = (error: unknown): void =>
    logger.error(`[portico] websocket of request ${ctx.request.id} failed`, error);
  const headers = ctx.request.headers;
  if (headers.get("sec-websocket-version") !== "13") {
    throw new HttpError(426, "UpgradeRequired", "Only websocket version 13 is supported", undefined, {
      "sec-websocket-version": "13",
    });
  }
  if (!KEY.test(headers.get("sec-websocket-key") ?? ""))
    throw badRequestError("Missing or invalid Sec-WebSocket-Key");
  const shim = upgradeShimFor(ctx.request.source, env);
  if (!shim) throw new HttpError(501, "NotImplemented", "This server cannot accept websockets");
  const response = shim(ctx.request.raw, (transport) => {
    const socket = new SocketController(transport, ctx.limits.wsMessageSize, (error) => {
      report(error);
      socket.close(1011, "Internal error");
    });
    start(socket, ctx, handler, report);
    return socket;
  });
  if (response === undefined) upgraded.add(ctx);
  return response;
}

function start(
  socket: SocketController,
  ctx: Context,
  handler: WsHandler<never>,
  report: (error: unknown) => void,
): void {
  if (isConnectable(handler)) {
    handler.connect(socket, ctx, report);
    return;
  }
  try {
    const result = (handler as (socket: Socket, ctx: Context) => unknown)(socket, ctx);
    if (result instanceof Promise) result.catch(socket.onError);
  } catch (error) {
    socket.onError(error);
  }
}
