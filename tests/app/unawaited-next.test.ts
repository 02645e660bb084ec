// A middleware that calls next() and does not await (or return) it: the response would go out before
// the handler answered (an empty 200). It is a 500, logged naming the middleware; never when the
// middleware answers without calling next(), nor when it awaits, returns or chains next().
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, defineEndpoint, type Middleware } from "../../src/mod.ts";

const slow = defineEndpoint({
  async call(ep) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return new Response(`handled ${ep.request.path}`);
  },
});

function appWith(...middleware: Middleware[]) {
  const errors: string[] = [];
  const app = createApp({
    logger: { error: (message, error) => void errors.push(`${message}: ${(error as Error).message}`) },
  });
  app.use(...middleware);
  app.get("/slow", slow);
  app.get("/sync", (ctx) => ctx.response.write("sync"));
  return { app, errors };
}

test("a forgotten await next() is a logged 500 naming the middleware, async or not", async () => {
  async function timing(_ctx: unknown, next: () => Promise<void>) {
    next();
  }
  for (const forgot of [timing as Middleware, ((_ctx, next) => void next()) as Middleware]) {
    const { app, errors } = appWith(forgot);
    const res = await app.request("/slow");
    assert.equal(res.status, 500);
    assert.equal(errors.length, 1);
    assert.match(
      errors[0]!,
      /failed: middleware ("timing"|#1 of scope 1 \(anonymous\)) finished before the next\(\) it called: await next\(\) \(or return it\)/,
    );
    await new Promise((resolve) => setTimeout(resolve, 10)); // the handler it left running ends quietly
  }
});

test("awaited, returned or chained next(), a middleware answering alone, and a synchronous rest: no error", async () => {
  const cases: Middleware[] = [
    async (_ctx, next) => {
      await next();
    },
    (_ctx, next) => next(),
    (_ctx, next) => next().then(() => {}),
    async (_ctx, next) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await next();
    },
  ];
  for (const middleware of cases) {
    const { app, errors } = appWith(middleware);
    const res = await app.request("/slow");
    assert.deepEqual([res.status, await res.text(), errors], [200, "handled /slow", []]);
  }
  const alone = appWith((ctx) => ctx.response.write("short-circuit"));
  assert.equal(await (await alone.app.request("/slow")).text(), "short-circuit");
  // next() not awaited, but the rest finished within the call: the answer is whole, nothing to say.
  const sync = appWith((_ctx, next) => void next());
  const res = await sync.app.request("/sync");
  assert.deepEqual([res.status, await res.text(), sync.errors], [200, "sync", []]);
});
