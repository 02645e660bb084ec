import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import {
  createApp,
  defineChannel,
  defineEndpoint,
  defineView,
  isLocalPath,
  readBody,
  t,
} from "../../src/mod.ts";

test("a body over the limit answers 413 with Connection: close (the rest is not read)", async () => {
  const app = createApp({ limits: { bodySize: 16 } });
  app.post(
    "/",
    defineEndpoint({ params: { json: t.body({ a: v.string() }, { require: true }) }, call: () => {} }),
  );
  const res = await app.request("/", { method: "POST", body: JSON.stringify({ a: "x".repeat(100) }) });
  assert.equal(res.status, 413);
  assert.equal(res.headers.get("connection"), "close");
});

test("readBody reads a body within the limit and answers 413 past it", async () => {
  const app = createApp({ limits: { bodySize: 8 } });
  app.post("/", async (ctx) => {
    ctx.response.write(`${(await readBody(ctx)).byteLength}`);
  });
  app.post("/bigger", async (ctx) => {
    ctx.response.write(`${(await readBody(ctx, { limit: 32 })).byteLength}`);
  });
  assert.equal(await (await app.request("/", { method: "POST", body: "12345678" })).text(), "8");
  assert.equal((await app.request("/", { method: "POST", body: "123456789" })).status, 413);
  assert.equal(await (await app.request("/bigger", { method: "POST", body: "x".repeat(30) })).text(), "30");
});

test("validation stops at 20 issues instead of checking every item", async () => {
  let checked = 0;
  const Strict = v.custom<number>((value) => {
    checked++;
    return typeof value === "number";
  }, "not a number");
  const app = createApp();
  app.post(
    "/",
    defineEndpoint({
      params: { json: t.body({ items: v.array(Strict) }, { require: true }) },
      call: () => {},
    }),
  );
  const items = Array.from({ length: 10_000 }, () => "x");
  const res = await app.request("/", {
    method: "POST",
    headers: { accept: "application/json" },
    body: JSON.stringify({ items }),
  });
  const { payload } = (
    (await res.json()) as { error: { payload: { issues: unknown[]; truncated: boolean } } }
  ).error;
  assert.deepEqual([res.status, payload.issues.length, payload.truncated], [400, 20, true]);
  assert.ok(checked <= 25, `stopped early: ${checked} of 10000 items checked`);
});

test("call() returning something that is not a view is ignored, and said once per route", async () => {
  const warnings: string[] = [];
  const app = createApp({ logger: { error: () => {}, warn: (message) => warnings.push(message) } });
  const Forgot = defineEndpoint({ call: () => ({ id: 1 }) as never });
  app.get("/forgot", Forgot);
  for (let i = 0; i < 3; i++) {
    const res = await app.request("/forgot");
    assert.deepEqual([res.status, await res.text()], [200, ""]);
  }
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /GET \/forgot: call\(\) returned a plain object, which is ignored; return a view/,
  );
});

test("a handler declaring path params the pattern lacks is refused at registration", () => {
  const GetPost = defineEndpoint({ params: { path: { id: t.int32() } }, call: () => {} });
  assert.throws(
    () => createApp().get("/posts/:postId", GetPost),
    /GET \/posts\/:postId: the handler declares path parameter "id", which the pattern does not have \(it has :postId\)/,
  );
  assert.doesNotThrow(() => createApp().get("/posts/:id", GetPost));
  const Room = defineChannel({ params: { path: { room: v.string() } } });
  assert.throws(() => createApp().ws("/chat", Room), /declares path parameter "room".*no parameters/);
  const Aliased = defineEndpoint({ params: { path: { id: t.key("post_id", t.int32()) } }, call: () => {} });
  assert.doesNotThrow(() => createApp().get("/posts/:post_id", Aliased));
});

test("a renderer for a JSON-like media type serialises objects", async () => {
  const Problem = defineView({ "application/problem+json": (p: { title: string }) => p });
  const app = createApp();
  app.get("/", () => Problem({ title: "x" }));
  const res = await app.request("/");
  assert.deepEqual(
    [res.headers.get("content-type"), await res.text()],
    ["application/problem+json", '{"title":"x"}'],
  );
});

test("isLocalPath accepts only paths on this site", () => {
  for (const ok of ["/", "/account", "/a/b?c=d#e", "/%2F%2Fx"]) assert.equal(isLocalPath(ok), true, ok);
  for (const bad of [
    "",
    "//evil",
    "/\\evil",
    "https://evil",
    "https:evil",
    "javascript:alert(1)",
    "/\t/evil",
    "evil",
  ]) {
    assert.equal(isLocalPath(bad), false, JSON.stringify(bad));
  }
});
