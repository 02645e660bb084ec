// Middleware of one route: `route(…, { use })` and `defineRoutes({ name: [method, path, handler, { use }] })`
// — it wraps that route only, inside its namespaces' middleware; the document shows its declarations on
// that route only; the typed client adds its errors to that method's union only.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { bearerAuth } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineRoutes, type Middleware } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const Hello = defineEndpoint({ call: (ep) => Response.json({ path: ep.context.request.path }) });
const mark =
  (label: string, seen: string[]): Middleware<unknown> =>
  async (ctx, next) => {
    seen.push(`${label} ${ctx.request.path}`);
    return next();
  };

test("route(…, { use }): wraps that route only, inside the namespace's middleware", async () => {
  const seen: string[] = [];
  const app = createApp();
  app.use(mark("app", seen));
  app.on("/ns", (r) => {
    r.use(mark("ns", seen));
    r.get("/guarded", Hello, { use: [mark("route", seen), mark("route2", seen)] });
    r.get("/open", Hello);
  });
  assert.equal((await app.request("/ns/guarded")).status, 200);
  assert.equal((await app.request("/ns/open")).status, 200);
  assert.equal((await app.request("/ns/missing")).status, 404);
  assert.deepEqual(seen, [
    "app /ns/guarded",
    "ns /ns/guarded",
    "route /ns/guarded",
    "route2 /ns/guarded",
    "app /ns/open",
    "ns /ns/open",
    "app /ns/missing",
  ]);
});

test("defineRoutes: a fourth element gives a route its own middleware; the document and the client follow", async () => {
  const guard = bearerAuth({ token: "s3cret" });
  const api = defineRoutes({
    open: ["GET", "/open", Hello],
    guarded: ["GET", "/guarded", Hello, { use: [guard] }],
  });
  const app = createApp();
  app.mount("/api", api);
  assert.equal((await app.request("/api/open")).status, 200);
  assert.equal((await app.request("/api/guarded")).status, 401);
  const document = openapi(app, { info: { title: "t", version: "1" } }) as Json;
  assert.equal(document.paths["/api/open"].get.security, undefined);
  assert.deepEqual(document.paths["/api/guarded"].get.security, [{ bearerAuth: [] }]);
  assert.equal(document.paths["/api/open"].get.responses["401"], undefined);
  const client = createClient<typeof api>({ baseUrl: "http://x.test/api", routes: api, fetch: app.fetch });
  const refused = await client.guarded();
  if (refused.ok) assert.fail("the guarded route let a request without a token through");
  const name: "Unauthorized" | "HttpError" = refused.error.name;
  assert.equal(name, "Unauthorized");
  const open = await client.open();
  if (!open.ok) {
    // @ts-expect-error the open route's union does not hold the guard's error
    const never: "Unauthorized" = open.error.name;
    assert.fail(`unexpected ${never}`);
  }
  assert.throws(
    () => defineRoutes({ bad: ["GET", "/x", Hello, {}, {}] as never }),
    /\[method, path, handler\]/,
  );
});

test("use(a, b, c): several middleware at once, in the order given, the first outermost", async () => {
  const app = createApp();
  const order: string[] = [];
  const mark = (name: string) => async (_ctx: unknown, next: () => Promise<void>) => {
    order.push(`${name}>`);
    await next();
    order.push(`<${name}`);
  };
  app.use(mark("a"), mark("b")).use(mark("c"));
  app.get("/", () => new Response("ok"));
  assert.equal(await (await app.request("/")).text(), "ok");
  assert.deepEqual(order, ["a>", "b>", "c>", "<c", "<b", "<a"]);
  assert.throws(() => app.use(mark("d"), "nope" as never), /Middleware must be a function/);
  order.length = 0;
  await app.request("/");
  assert.deepEqual(order, ["a>", "b>", "c>", "<c", "<b", "<a"], "nothing of a refused call was added");
});
