// Workers (workerd), as the app finds it with `export default app`: websockets through a
// `WebSocketPair`, the client end returned in a 101 response; the peer from `CF-Connecting-IP`.

import type { Runtime, UpgradeShim } from "../runtime/runtime.ts";
import { forwardEvents, type StandardWebSocket, standardTransport } from "../ws/whatwg-transport.ts";
import { builtinAsyncStorage } from "./async-storage.ts";

type Pair = new () => Record<0 | 1, StandardWebSocket & { accept(): void }>;

const WebSocketPair = (globalThis as { WebSocketPair?: Pair }).WebSocketPair;

/** True on workerd. */
export const onWorkerd: boolean = WebSocketPair !== undefined;

// Only Cloudflare's edge sets `CF-Connecting-IP` (a self-hosted workerd passes the client's).
const onCloudflare =
  onWorkerd &&
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";

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

/** The Workers runtime. */
export const workersRuntime: Runtime = {
  name: "Workers",
  asyncStorage: builtinAsyncStorage,
  peer: (request) => (onCloudflare ? (request.headers.get("cf-connecting-ip") ?? undefined) : undefined),
  upgrade: () => workersShim,
  keepOpen: () => {},
  compressor: () => undefined,
  resumed: () => false,
};
