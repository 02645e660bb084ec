// Deno, as the app finds it when served by `Deno.serve(app.fetch)` or `deno serve`: the peer from the
// connection info `fetch` gets as its second argument, websockets through `Deno.upgradeWebSocket`.

import type { Runtime, UpgradeShim } from "../runtime/runtime.ts";
import { forwardEvents, type StandardWebSocket, standardTransport } from "../ws/whatwg-transport.ts";
import { builtinAsyncStorage } from "./async-storage.ts";
import { denoFiles } from "./files.ts";

type UpgradeWebSocket = (
  request: Request,
  options?: { protocol?: string },
) => { socket: StandardWebSocket; response: Response };

interface DenoServeInfo {
  readonly remoteAddr: { readonly transport?: string; readonly hostname?: string };
}

const upgradeWebSocket = (globalThis as { Deno?: { upgradeWebSocket?: UpgradeWebSocket } }).Deno
  ?.upgradeWebSocket;

const denoShim: UpgradeShim | undefined =
  upgradeWebSocket &&
  ((request, open, options) => {
    // Deno checks a chosen subprotocol against the offered list split at ", " only, and answers 500 to
    // a client that separates them with a bare comma (the `ws` package does; RFC 9110 lists allow
    // both): the core has chosen among the offered ones already, so the header is set here.
    const { socket, response } = upgradeWebSocket(request);
    if (options.protocol !== undefined) response.headers.set("sec-websocket-protocol", options.protocol);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => forwardEvents(socket, open(standardTransport(socket)), false));
    return response;
  });

/** True on Deno. */
export const onDeno: boolean = upgradeWebSocket !== undefined;

/** Deno's runtime. It closes a request with its websocket handshake: the core keeps what it said first. */
export const denoRuntime: Runtime = {
  name: "Deno",
  asyncStorage: builtinAsyncStorage,
  peer(_request, env) {
    const info = env as Partial<DenoServeInfo> | null | undefined;
    const address = typeof info === "object" && info !== null ? info.remoteAddr : undefined;
    return address?.transport === "tcp" || address?.transport === "udp" ? address.hostname : undefined;
  },
  upgrade: () => denoShim,
  keepOpen: () => {},
  compressor: () => undefined,
  resumed: () => false,
  releasesUpgradedRequest: true,
  files: denoFiles,
};
