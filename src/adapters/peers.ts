// Where each runtime tells the address of the connection's other end (one function per runtime, tried
// in order by the app, `app/runtimes.ts`), and how a long-lived response stops its idle timeout.
interface BunServer {
  requestIP(request: Request): { address: string } | null;
  timeout(request: Request, seconds: number): void;
}

interface DenoServeInfo {
  readonly remoteAddr: { readonly transport?: string; readonly hostname?: string };
}

const onWorkers =
  (globalThis as { WebSocketPair?: unknown }).WebSocketPair !== undefined &&
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";

/** Bun passes its server as `fetch`'s second argument: `server.requestIP(request)`. */
export function bunPeer(request: Request, env: unknown): string | undefined {
  const server = env as Partial<BunServer> | null | undefined;
  return typeof server?.requestIP === "function"
    ? (server.requestIP(request)?.address ?? undefined)
    : undefined;
}

/** `Deno.serve` passes connection info as the second argument: `info.remoteAddr`. */
export function denoPeer(_request: Request, env: unknown): string | undefined {
  const info = env as Partial<DenoServeInfo> | null | undefined;
  const address = typeof info === "object" && info !== null ? info.remoteAddr : undefined;
  return address?.transport === "tcp" || address?.transport === "udp" ? address.hostname : undefined;
}

/** On Cloudflare's network, the edge sets `CF-Connecting-IP` (a self-hosted workerd passes the client's). */
export function workersPeer(request: Request): string | undefined {
  return onWorkers ? (request.headers.get("cf-connecting-ip") ?? undefined) : undefined;
}

/** Bun closes a connection idle for 10 s by default: `server.timeout(request, 0)` lifts that for one request. */
export function bunKeepOpen(request: Request, env: unknown): void {
  const server = env as Partial<BunServer> | null | undefined;
  if (typeof server?.timeout === "function" && typeof server.requestIP === "function")
    server.timeout(request, 0);
}
