import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp } from "../../src/mod.ts";

// Path params are gathered when first read (router/route-match.ts): what that must not change.

test("a malformed % in a path param is a 400 even for a handler that never reads its params", async () => {
  const app = createApp();
  let ran = false;
  app.get("/files/:name", (ctx) => {
    ran = true;
    ctx.response.write("ok");
  });
  const response = await app.fetch(new Request("http://h/files/a%E0%A4%A"));
  assert.equal(response.status, 400);
  assert.equal(ran, false);
});

test("params read late, decoded, without inherited keys; an assigned object replaces them", async () => {
  const app = createApp();
  app.use(async (ctx, next) => {
    if (ctx.request.path.startsWith("/swap/")) ctx.request.pathParams = { name: "swapped" };
    await next();
  });
  app.get("/files/:name", (ctx) =>
    ctx.response.write(`${ctx.request.pathParams.name}|${"toString" in ctx.request.pathParams}`),
  );
  app.get("/swap/:name", (ctx) => ctx.response.write(ctx.request.pathParams.name!));
  assert.equal(await (await app.fetch(new Request("http://h/files/a%20b"))).text(), "a b|false");
  assert.equal(await (await app.fetch(new Request("http://h/swap/x"))).text(), "swapped");
});
