// app.onClose(): the app's own resources released by app.close() (and so by every server handle's
// close()), after its websockets and backplane, the last registered first, once, a failure logged.
import assert from "node:assert/strict";
import { test } from "node:test";
import { serve } from "../../src/adapters/node.ts";
import { createApp } from "../../src/mod.ts";

test("onClose: run by close(), last registered first, once; a failing one is logged and the rest run", async () => {
  const logged: unknown[] = [];
  const app = createApp({
    logger: { error: (...args: unknown[]) => void logged.push(args[0]), warn() {}, info() {} },
  });
  const order: string[] = [];
  app
    .onClose(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      order.push("pool");
    })
    .onClose(() => {
      throw new Error("cache already gone");
    })
    .onClose(() => void order.push("cache"));
  app.get("/", () => new Response("ok"));
  const server = await serve(app, { port: 0 });
  assert.equal(await (await fetch(server.url)).text(), "ok");
  await server.close();
  await app.close();
  assert.deepEqual(order, ["cache", "pool"]);
  assert.deepEqual(logged, ["[portico] an onClose() callback failed"]);
  assert.throws(() => app.onClose("nope" as never), /takes a function/);
});
