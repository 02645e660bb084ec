import { bunUpgrade } from "../adapters/bun-upgrade.ts";
import { denoUpgrade } from "../adapters/deno-upgrade.ts";
import { workersUpgrade } from "../adapters/workers-upgrade.ts";
import { attachedShim, type UpgradeShim } from "../ws/shims.ts";

/**
 * How each runtime accepts a websocket upgrade, tried in order, so that `export default app` and
 * `Deno.serve(app.fetch)` need no adapter. Each shim lives beside its runtime's adapter; adding a
 * runtime is one such file and one row here. A server adapter may attach its own shim to the request
 * instead (the Node adapter does, for `ws`).
 */
const RUNTIMES: readonly {
  readonly runtime: string;
  readonly shim: (request: Request, env: unknown) => UpgradeShim | undefined;
}[] = [
  { runtime: "Bun", shim: bunUpgrade },
  { runtime: "Deno", shim: denoUpgrade },
  { runtime: "Workers", shim: workersUpgrade },
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
