import type { SocketController, SocketTransport } from "./socket-controller.ts";

/** Opens the session once the runtime reports the socket open; returns the controller to feed. */
export type OpenSocket = (transport: SocketTransport) => SocketController;

/** What the app decided about an upgrade, for the runtime to apply. */
export interface UpgradeOptions {
  /** The subprotocol the app chose among the client's (sent back in `Sec-WebSocket-Protocol`). */
  readonly protocol: string | undefined;
  /** The largest message the app accepts, in bytes (runtimes that can refuse earlier do). */
  readonly maxMessageSize: number;
}

/**
 * A runtime's way to accept an upgrade. Returns the `Response` to send (Deno, workerd), or
 * `undefined` when the runtime answers the handshake itself (Bun, the Node adapter).
 */
export type UpgradeShim = (
  request: Request,
  open: OpenSocket,
  options: UpgradeOptions,
) => Response | undefined;

const shimKey = Symbol.for("portico.upgrade-shim");

/** Attaches a server adapter's upgrade shim to a request (the Node adapter does, for `ws`). */
export function attachUpgradeShim(request: Request, shim: UpgradeShim): void {
  (request as { [shimKey]?: UpgradeShim })[shimKey] = shim;
}

/** The shim a server adapter attached to a request, if any. */
export function attachedShim(request: Request): UpgradeShim | undefined {
  return (request as { [shimKey]?: UpgradeShim })[shimKey];
}
