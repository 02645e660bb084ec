// Deno's websocket shim: `Deno.upgradeWebSocket`, whose response the app returns.
import type { UpgradeShim } from "../ws/shims.ts";
import { forwardEvents, type StandardWebSocket, standardTransport } from "../ws/whatwg-transport.ts";

type UpgradeWebSocket = (
  request: Request,
  options?: { protocol?: string },
) => { socket: StandardWebSocket; response: Response };

const upgradeWebSocket = (globalThis as { Deno?: { upgradeWebSocket?: UpgradeWebSocket } }).Deno
  ?.upgradeWebSocket;

const denoShim: UpgradeShim | undefined =
  upgradeWebSocket &&
  ((request, open, options) => {
    const { socket, response } = upgradeWebSocket(
      request,
      options.protocol === undefined ? {} : { protocol: options.protocol },
    );
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => forwardEvents(socket, open(standardTransport(socket)), false));
    return response;
  });

/** On Deno, `Deno.upgradeWebSocket`. */
export function denoUpgrade(): UpgradeShim | undefined {
  return denoShim;
}
