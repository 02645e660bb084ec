import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { serverClient, wsSession } from "../conformance/client.ts";
import { bunDefault, denoHelper, type RunningTarget, type Target } from "./targets.ts";

// The other documented ways to start the same app: a request and a websocket through each.
for (const target of [bunDefault, denoHelper] satisfies Target[]) {
  describe(`entry point: ${target.name}`, () => {
    let running: RunningTarget | undefined;
    before(async () => {
      running = await target.start();
    });
    after(() => running?.stop());
    test("serves HTTP", async () => {
      const res = await serverClient(running!.origin).fetch("/api/users/1", {
        headers: { accept: "text/plain" },
      });
      assert.equal(await res.text(), "1 Ada");
    });
    test("serves websockets", async () => {
      const outcome = await wsSession(running!.origin, "/ws/echo", { send: ["ping"], closeAfter: 2 });
      assert.deepEqual(outcome.messages, ["hello 36", "ping"]);
    });
  });
}
