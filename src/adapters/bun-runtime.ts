// Bun, as the app finds it with `Bun.serve(app)` or `export default app`: the server `fetch` gets as
// its second argument tells the peer, upgrades (`server.upgrade`) and lifts idle timeouts.

import type { Runtime, UpgradeShim } from "../runtime/runtime.ts";
import type { BunSocketData } from "../ws/bun-handlers.ts";
import { builtinAsyncStorage } from "./async-storage.ts";
import { bunFiles } from "./files.ts";

interface BunServer {
  upgrade(request: Request, options: { data: BunSocketData; headers?: Record<string, string> }): boolean;
  publish?(topic: string, data: string | Uint8Array): unknown;
}

/** True on Bun. */
export const onBun: boolean = (globalThis as { Bun?: unknown }).Bun !== undefined;

// The server that `fetch` received upgrades the request.
function bunUpgrade(request: Request, env: unknown): UpgradeShim | undefined {
  const server = env as Partial<BunServer> | undefined;
  if (typeof server?.upgrade !== "function") return undefined;
  return (_request, open, options) => {
    // Without the header, Bun answers with the first subprotocol the client offered: only the app chooses.
    const headers = { "sec-websocket-protocol": options.protocol ?? "" };
    const bun = server as BunServer;
    const data: BunSocketData = { open };
    if (typeof bun.publish === "function") data.server = bun as Required<BunServer>;
    const accepted = bun.upgrade(request, { data, headers });
    if (!accepted) throw new Error("Bun refused the websocket upgrade");
    return undefined;
  };
}

/** The part of Bun's server `fetch` gets as its second argument that the runtime asks. */
interface BunServerInfo {
  requestIP(request: Request): { address: string } | null;
  timeout(request: Request, seconds: number): void;
}

/** Bun's runtime: the server passed to `fetch` tells the peer, upgrades, and lifts idle timeouts. */
export const bunRuntime: Runtime = {
  name: "Bun",
  asyncStorage: builtinAsyncStorage,
  peer(request, env) {
    const server = env as Partial<BunServerInfo> | null | undefined;
    return typeof server?.requestIP === "function"
      ? (server.requestIP(request)?.address ?? undefined)
      : undefined;
  },
  upgrade: bunUpgrade,
  // Bun closes a connection idle for 10 s by default: `server.timeout(request, 0)` lifts that.
  keepOpen(request, env) {
    const server = env as Partial<BunServerInfo> | null | undefined;
    if (typeof server?.timeout === "function" && typeof server.requestIP === "function")
      server.timeout(request, 0);
  },
  compressor: () => undefined,
  resumed: () => false,
  files: bunFiles,
};
