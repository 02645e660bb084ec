import { bunUpgrade } from "../adapters/bun-upgrade.ts";
import { denoUpgrade } from "../adapters/deno-upgrade.ts";
import { adapterPeer, bunKeepOpen, bunPeer, denoPeer, workersPeer } from "../adapters/peers.ts";
import { workersUpgrade } from "../adapters/workers-upgrade.ts";
import { attachedShim, type UpgradeShim } from "../ws/shims.ts";

/**
 * How each runtime accepts a websocket upgrade and tells the peer's address, tried in order, so that
 * `export default app` and `Deno.serve(app.fetch)` need no adapter. Each shim lives beside its
 * runtime's adapter (the peer lookups in `adapters/peers.ts`); adding a runtime is one such file and
 * one row here. A server adapter may attach its own shim to the request
 * instead (the Node adapter does, for `ws`).
 */
const RUNTIMES: readonly {
  readonly runtime: string;
  readonly shim: (request: Request, env: unknown) => UpgradeShim | undefined;
  readonly peer: (request: Request, env: unknown) => string | undefined;
}[] = [
  { runtime: "Bun", shim: bunUpgrade, peer: bunPeer },
  { runtime: "Deno", shim: denoUpgrade, peer: denoPeer },
  { runtime: "Workers", shim: workersUpgrade, peer: workersPeer },
];

/** The upgrade shim for this request on this runtime, or `undefined` where websockets cannot be accepted. */
export function upgradeShimFor(request: Request, env: unknown): UpgradeShim | undefined {
  const attached = attachedShim(request);
  if (attached !== undefined) return attached;
  for (const { shim } of RUNTIMES) {
    const found = shim(request, env);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The address of the connection's other end, as the server adapter or the runtime reports it. */
export function peerAddress(request: Request, env: unknown): string | undefined {
  const known = adapterPeer(request);
  if (known !== undefined) return known;
  for (const { peer } of RUNTIMES) {
    const found = peer(request, env);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Keeps a long-lived response (an event stream) from the runtime's idle timeout: Bun's 10 s default.
 * Node's, Deno's and workerd's servers do not time out a response that is being streamed.
 */
export function keepOpen(request: Request, env: unknown): void {
  bunKeepOpen(request, env);
}
