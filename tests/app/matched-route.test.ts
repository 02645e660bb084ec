// ctx.route: the route a request matched, as app.routes() lists it, seen by middleware before next().
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, type MatchedRoute } from "../../src/mod.ts";

function app() {
  const seen: (MatchedRoute | undefined)[] = [];
  const server = createApp();
  server.use(async (ctx, next) => {
    seen.push(ctx.route);
    await next();
  });
  server.on("/api", (r) => {
    r.on("/v1", (v1) => {
      v1.get("/users/:id", (ctx) => ctx.response.write(`${ctx.route?.path}`));
    });
    r.route("POST", "/orders", (ctx) => ctx.response.write("made"), { name: "createOrder" });
    r.all("/any", (ctx) => ctx.response.write("any"));
  });
  return { server, seen };
}

test("ctx.route is the matched route's listing: the pattern with its prefixes, the method, the name", async () => {
  const { server, seen } = app();
  const res = await server.request("/api/v1/users/42");
  assert.equal(await res.text(), "/api/v1/users/:id");
  await server.request("/api/orders", { method: "POST" });
  await server.request("/api/any", { method: "DELETE" });
  // HEAD is answered by the GET route: that route is the one named.
  await server.request("/api/v1/users/7", { method: "HEAD" });
  assert.deepEqual(
    seen.map((route) => route && { method: route.method, path: route.path, name: route.name }),
    [
      { method: "GET", path: "/api/v1/users/:id", name: undefined },
      { method: "POST", path: "/api/orders", name: "createOrder" },
      { method: "ALL", path: "/api/any", name: undefined },
      { method: "GET", path: "/api/v1/users/:id", name: undefined },
    ],
  );
  // The very object app.routes() lists.
  assert.ok(server.routes().includes(seen[1] as never));
});

test("no route matched (404, 405, a bad target): ctx.route is undefined", async () => {
  const { server, seen } = app();
  assert.equal((await server.request("/api/nowhere")).status, 404);
  assert.equal((await server.request("/api/orders")).status, 405);
  assert.equal((await server.request("/api/v1/users/%zz")).status, 400);
  assert.deepEqual(seen, [undefined, undefined, undefined]);
});
