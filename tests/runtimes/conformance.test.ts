import { after, before, describe } from "node:test";
import { serverClient } from "../conformance/client.ts";
import { registerConformance } from "../conformance/register.ts";
import { bun, deno, denoServe, node24, type RunningTarget, type Target, workerd } from "./targets.ts";

// The same suite as on this process's Node, against a real server on each other runtime. A runtime
// that cannot start fails its `before` hook, and with it every case of that runtime.
// `TARGETS=deno,bun` runs those runtimes only (a name's start, case-insensitive).
const only = process.env.TARGETS?.toLowerCase().split(",").filter(Boolean);
const targets: Target[] = [node24, deno, denoServe, bun, workerd].filter(
  (target) => only === undefined || only.some((name) => target.name.toLowerCase().startsWith(name)),
);

for (const target of targets) {
  describe(`conformance on ${target.name}`, () => {
    let running: RunningTarget | undefined;
    before(async () => {
      running = await target.start();
    });
    after(() => running?.stop());
    registerConformance(target.name, () => {
      if (!running) throw new Error(`${target.name} did not start`);
      return serverClient(running.origin, target.runtime);
    });
  });
}
