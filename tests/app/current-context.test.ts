// currentContext(): the request's context from code that was not given it, through AsyncLocalStorage
// (createApp({ asyncContext: true })), across awaits, a body, middleware and concurrent requests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { App, createApp, currentContext, defineEndpoint, defineView, t } from "../../src/mod.ts";

// A "repository" function: it gets no ctx.
async function audit(step: string): Promise<string> {
  await sleep(Math.floor(Math.random() * 5));
  return `${step}:${currentContext()?.request.id ?? "none"}`;
}

test("without an app that keeps contexts, currentContext() throws saying what it needs", () => {
  assert.throws(() => currentContext(), /createApp\(\{ asyncContext: true \}\)/);
  // Nor can an app keep them on a runtime without AsyncLocalStorage.
  const none = { name: "Workers", peer: () => undefined, upgrade: () => undefined, keepOpen: () => {} };
  assert.throws(
    () =>
      new App({
        asyncContext: true,
        runtime: { ...none, compressor: () => undefined, resumed: () => false },
      }),
    /needs AsyncLocalStorage.*nodejs_compat/,
  );
});

test("middleware, an endpoint with a JSON body and what they await see their own request's context", async () => {
  const Json = defineView({ json: (data: object) => data });
  const Create = defineEndpoint({
    params: { json: t.body({ name: v.string() }, { require: true }) },
    async call(ep) {
      const seen = [await audit("call")];
      await sleep(1);
      seen.push(await audit("after await"));
      return Json({ name: ep.params.json.name, seen });
    },
  });
  const app = createApp({ asyncContext: true });
  app.use(async (ctx, next) => {
    ctx.response.headers.set("x-before", await audit("middleware"));
    await next();
  });
  app.post("/items", Create);
  app.get("/plain", async (ctx) => ctx.response.write(await audit("block")));

  // Twenty at once, each with its own delays: none sees another's context.
  const answers = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const res = await app.request("/items", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `n${i}` }),
      });
      return {
        id: res.headers.get("x-request-id")!,
        before: res.headers.get("x-before"),
        body: await res.json(),
      };
    }),
  );
  for (const { id, before, body } of answers) {
    assert.equal(before, `middleware:${id}`);
    assert.deepEqual(body.seen, [`call:${id}`, `after await:${id}`]);
  }
  const plain = await app.request("/plain");
  assert.equal(await plain.text(), `block:${plain.headers.get("x-request-id")}`);
  // Outside any request: nothing.
  assert.equal(currentContext(), undefined);
});

test("an app without the option runs its requests outside the store", async () => {
  const app = createApp();
  app.get("/", async (ctx) => ctx.response.write(await audit("block")));
  assert.equal(await (await app.request("/")).text(), "block:none");
});
