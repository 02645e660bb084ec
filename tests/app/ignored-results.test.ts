// A handler returning what is neither a view, a Response nor nothing: refused by the types
// (tests/types/inference.types.ts), ignored at run time and said once to the app's logger.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, defineEndpoint } from "../../src/mod.ts";

test("a block, a middleware or an endpoint returning a string answers as before, and the logger is told once", async () => {
  const warnings: string[] = [];
  const app = createApp({ logger: { error: () => {}, warn: (message) => void warnings.push(message) } });
  app.get("/text", (() => "text") as never);
  app.get("/async", (async () => 42) as never);
  app.get("/endpoint", defineEndpoint({ call: (() => "oops") as never }));
  app.on("/mw", (r) => {
    r.use((async (_ctx: unknown, next: () => Promise<void>) => {
      await next();
      return "from middleware";
    }) as never);
    r.get("/", (ctx) => ctx.response.write("ok"));
  });
  for (const path of ["/text", "/text", "/async", "/endpoint", "/mw"]) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    await res.text();
  }
  assert.deepEqual(warnings, [
    "[portico] GET /text: a handler returned a string, which is ignored; write ctx.response, or return a view or a Response",
    "[portico] GET /async: a handler returned a number, which is ignored; write ctx.response, or return a view or a Response",
    "[portico] GET /endpoint: call() returned a string, which is ignored; return a view (or a Response)",
    "[portico] GET /mw: a handler returned a string, which is ignored; write ctx.response, or return a view or a Response",
  ]);
});
