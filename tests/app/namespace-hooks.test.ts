import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, createRouter, defineEndpoint, defineError } from "../../src/mod.ts";

const Nope = defineError("Nope", 409);
const Plain = defineEndpoint({
  errors: { Nope },
  call(ep) {
    if (ep.request.query === "nope") throw new ep.errors.Nope();
    if (ep.request.query === "boom") throw new Error("boom");
    ep.context.response.write(`ran ${ep.context.state.trail ?? ""}`);
  },
});

test("onError: the nearest namespace first; returning nothing passes the error outwards, up to the app's", async () => {
  const app = createApp();
  const seen: string[] = [];
  app.onError((error) => {
    seen.push("app");
    return new Response(`app: ${(error as Error).message}`, { status: 500 });
  });
  app.on("/a", (r) => {
    r.onError(() => {
      seen.push("a");
    });
    r.on("/b", (r) => {
      r.onError((error) => {
        seen.push("b");
        return error instanceof Nope ? new Response("b handled Nope", { status: 409 }) : undefined;
      });
      r.get("/x", Plain);
    });
  });
  app.get("/top", Plain);
  assert.equal(await (await app.request("/a/b/x?nope")).text(), "b handled Nope");
  assert.deepEqual(seen.splice(0), ["b"]);
  assert.equal(await (await app.request("/a/b/x?boom")).text(), "app: boom");
  assert.deepEqual(seen.splice(0), ["b", "a", "app"]);
  assert.equal(await (await app.request("/top?boom")).text(), "app: boom");
  assert.deepEqual(seen.splice(0), ["app"]);
});

test("a mounted router's hooks travel with it; a failing handler falls back to the default rendering", async () => {
  const app = createApp({ logger: { error: () => {} } });
  app.mount(
    "/r",
    createRouter((r) => {
      r.onError(() => {
        throw new Error("the handler itself fails");
      });
      r.notFound(() => new Response("router's 404", { status: 404 }));
      r.get("/x", Plain);
    }),
  );
  const failed = await app.request("/r/x?nope");
  assert.deepEqual([failed.status, await failed.text()], [409, "409 Nope"]);
  assert.equal(await (await app.request("/r/missing")).text(), "router's 404");
  assert.equal((await app.request("/elsewhere")).status, 404);
});

test("notFound: the longest prefix wins, inside its namespace's middleware; the app's covers the rest", async () => {
  const app = createApp();
  app.notFound((ctx) => ctx.response.write("app 404"));
  app.on("/api", (r) => {
    r.use(async (ctx, next) => {
      await next();
      ctx.response.headers.set("x-api", "1");
    });
    r.notFound((ctx) => ctx.response.write("api 404"));
    r.on("/v2", (r) => r.notFound((ctx) => ctx.response.write("v2 404")));
    r.get("/users", Plain);
  });
  const api = await app.request("/api/nothing");
  assert.deepEqual([api.status, await api.text(), api.headers.get("x-api")], [404, "api 404", "1"]);
  assert.equal(await (await app.request("/api/v2/a/b")).text(), "v2 404");
  assert.equal(await (await app.request("/api/v2")).text(), "v2 404");
  assert.equal(await (await app.request("/apis")).text(), "app 404");
  assert.equal((await app.request("/api/users", { method: "DELETE" })).status, 405);
});

test("before/after: namespaces' first (outermost first); a raise in one skips the rest; blocks do not run them", async () => {
  const app = createApp();
  const trail: string[] = [];
  app.on("/ns", (r) => {
    r.get("/e", Plain);
    r.get("/block", (ctx) => ctx.response.write("block"));
    // Added after the routes: they still apply.
    r.before((ep) => {
      trail.push("ns before");
      if (ep.request.query === "stop") throw new Nope();
      ep.context.state.trail = "with ns";
    });
    r.after(() => {
      trail.push("ns after");
    });
  });
  assert.equal(await (await app.request("/ns/e")).text(), "ran with ns");
  assert.deepEqual(trail.splice(0), ["ns before", "ns after"]);
  assert.equal((await app.request("/ns/e?stop")).status, 409);
  assert.deepEqual(trail.splice(0), ["ns before"]);
  assert.equal(await (await app.request("/ns/block")).text(), "block");
  assert.deepEqual(trail.splice(0), []);
  assert.throws(() => app.on("/x", (r) => r.before("no" as never)), /before\(\) takes a function/);
});
