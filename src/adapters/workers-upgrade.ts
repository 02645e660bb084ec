// Workers' websocket shim: a `WebSocketPair`, the client end returned in a 101 response.
import type { UpgradeShim } from "../ws/shims.ts";
import { forwardEvents, type StandardWebSocket, standardTransport } from "../ws/whatwg-transport.ts";

type Pair = new () => Record<0 | 1, StandardWebSocket & { accept(): void }>;

const WebSocketPair = (globalThis as { WebSocketPair?: Pair }).WebSocketPair;

const workersShim: UpgradeShim | undefined =
  WebSocketPair &&
  ((_request, open, options) => {
    const pair = new WebSocketPair();
    const client = pair[0];
    const server = pair[1];
    server.accept();
    server.binaryType = "arraybuffer";
    forwardEvents(server, open(standardTransport(server)), true);
    const init: ResponseInit & { webSocket: unknown } = { status: 101, webSocket: client };
    if (options.protocol !== undefined) init.headers = { "sec-websocket-protocol": options.protocol };
    return new Response(null, init);
  });

/** On Workers (workerd), a `WebSocketPair`. */
export function workersUpgrade(): UpgradeShim | undefined {
  return workersShim;
}
