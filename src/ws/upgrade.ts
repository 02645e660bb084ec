import type { Context } from "../context/context.ts";
import { connectKey, isConnectable, type WsHandler } from "../context/handler.ts";
import type { Socket } from "../context/socket.ts";
import { badRequestError, HttpError } from "../errors/http-error.ts";
import type { TopicHub } from "../pubsub/hub.ts";
import type { SocketTransport } from "../runtime/runtime.ts";
import { SocketController } from "./socket-controller.ts";
import { channelOffers, mayCarryToken } from "./upgrade-token.ts";

const upgraded = new WeakSet<Context>();

/** True when the request asks for a websocket (`Upgrade: websocket`). */
export function isUpgradeRequest(request: { header(name: string): string | null }): boolean {
  const upgrade = request.header("upgrade");
  return upgrade !== null && upgrade.toLowerCase() === "websocket";
}

/** True when the runtime itself answered this request's handshake (Bun, the Node adapter). */
export function wasUpgraded(ctx: Context): boolean {
  return upgraded.has(ctx);
}

const KEY = /^[A-Za-z0-9+/]{22}==$/;

/**
 * Accepts a websocket upgrade for a ws route, through the runtime's shim, and starts its session once
 * the socket is open: a block runs once with `(socket, ctx)`, a channel takes over the socket. Returns
 * the runtime's handshake response, or `undefined` when the runtime answered it itself.
 */
export function upgrade(
  ctx: Context,
  handler: WsHandler<never>,
  logger: { error(message: string, error?: unknown): void },
  hub?: TopicHub,
  sockets?: Set<SocketController>,
): Response | undefined {
  const report = (error: unknown): void =>
    logger.error(`[portico] websocket of request ${ctx.request.id} failed`, error);
  const request = ctx.request;
  if (request.header("sec-websocket-version") !== "13") {
    throw new HttpError(426, "UpgradeRequired", "Only websocket version 13 is supported", undefined, {
      "sec-websocket-version": "13",
    });
  }
  if (!KEY.test(request.header("sec-websocket-key") ?? ""))
    throw badRequestError("Missing or invalid Sec-WebSocket-Key");
  const source = ctx.request.source;
  const shim = ctx.runtime.upgrade(source, ctx.env);
  if (!shim) throw new HttpError(501, "NotImplemented", "This server cannot accept websockets");
  const protocol = chooseProtocol(ctx, isConnectable(handler) ? handler.protocols : undefined);
  const open = (transport: SocketTransport): SocketController => {
    const socket = new SocketController(
      transport,
      ctx.limits,
      (error) => {
        report(error);
        socket.close(1011, "Internal error");
      },
      hub,
    );
    if (sockets !== undefined) {
      sockets.add(socket);
      socket.onClose(() => sockets.delete(socket));
    }
    start(socket, ctx, handler, report, resumed);
    return socket;
  };
  const resumed = ctx.runtime.resumed(source);
  // The socket outlives the request, which some runtimes close with the handshake (Deno).
  ctx.request.settle();
  const response = shim(source, open, { protocol, maxMessageSize: ctx.limits.wsMessageSize });
  if (response === undefined) {
    upgraded.add(ctx);
    // What the runtime sent, for middleware that reads the status after `await next()` (logger()).
    ctx.response.status = 101;
  }
  return response;
}

// Only the app chooses a subprotocol: the first it speaks (in its order) that the client offered.
// A client that offers some, none of which the channel speaks, is refused with a clear 400; a route
// that declares none never sends one back. The entries that carried a token to the auth middleware
// (`upgrade-token.ts`) are not the channel's: its marker is answered when nothing else was offered.
function chooseProtocol(ctx: Context, spoken: readonly string[] | undefined): string | undefined {
  const offered = ctx.request.header("sec-websocket-protocol");
  if (offered === null) return undefined;
  const { offers, carried } = channelOffers(
    ctx,
    offered.split(",").map((protocol) => protocol.trim()),
  );
  if (offers.length === 0 || spoken === undefined || spoken.length === 0) return carried;
  const chosen = spoken.find((protocol) => offers.includes(protocol));
  if (chosen === undefined) {
    // Quoted short, and never a `bearer.` entry: an entry may be a credential no middleware here read.
    const quoted = offers
      .filter((offer) => !mayCarryToken(offer))
      .slice(0, 5)
      .map((offer) => (offer.length > 32 ? "…" : offer));
    throw badRequestError(
      `None of the offered subprotocols (${quoted.join(", ")}) is spoken here: ${spoken.join(", ")}`,
    );
  }
  return chosen;
}

function start(
  socket: SocketController,
  ctx: Context,
  handler: WsHandler<never>,
  report: (error: unknown) => void,
  resumed: boolean,
): void {
  if (isConnectable(handler)) {
    socket.onError = handler[connectKey](socket, ctx, report, resumed);
    return;
  }
  try {
    const result = (handler as (socket: Socket, ctx: Context) => unknown)(socket, ctx);
    if (result instanceof Promise) result.catch(socket.onError);
  } catch (error) {
    socket.onError(error);
  }
}
