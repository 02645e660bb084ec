import { bunUpgrade } from "../adapters/bun-upgrade.ts";
import { denoUpgrade } from "../adapters/deno-upgrade.ts";
import { bunKeepOpen, bunPeer, denoPeer, workersPeer } from "../adapters/peers.ts";
import { workersUpgrade } from "../adapters/workers-upgrade.ts";
import { peerOf } from "../fast-path/fast-path.ts";
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
  /** Lifts the runtime's idle timeout for one long-lived response, where it has one. */
  readonly keepOpen?: (request: Request, env: unknown) => void;
}[] = [
  { runtime: "Bun", shim: bunUpgrade, peer: bunPeer, keepOpen: bunKeepOpen },
  { runtime: "Deno", shim: denoUpgrade, peer: denoPeer },
  { runtime: "Workers", shim: workersUpgrade, peer: workersPeer },
];

// The first runtime's answer (each one answers only for its own runtime).
function firstAnswer<TAnswer>(
  ask: (row: (typeof RUNTIMES)[number]) => TAnswer | undefined,
): TAnswer | undefined {
  for (const row of RUNTIMES) {
    const answer = ask(row);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/** The upgrade shim for this request on this runtime, or `undefined` where websockets cannot be accepted. */
export function upgradeShimFor(request: Request, env: unknown): UpgradeShim | undefined {
  return attachedShim(request) ?? firstAnswer(({ shim }) => shim(request, env));
}

/** The address of the connection's other end, as the server adapter or the runtime reports it. */
export function peerAddress(request: Request, env: unknown): string | undefined {
  return peerOf(request) ?? firstAnswer(({ peer }) => peer(request, env));
}

/**
 * Keeps a long-lived response (an event stream) from the runtime's idle timeout: Bun's 10 s default.
 * Node's, Deno's and workerd's servers do not time out a response that is being streamed.
 */
export function keepOpen(request: Request, env: unknown): void {
  for (const row of RUNTIMES) row.keepOpen?.(request, env);
}
