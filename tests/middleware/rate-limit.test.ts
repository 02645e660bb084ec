// rateLimit() with memoryStore(): the window, the headers on every answer, the declared 429 with
// Retry-After, who is counted (the trusted client address, IPv4-mapped IPv6 as IPv4, an IPv6 /64),
// a store that fails, the document, the typed client, and the store's own contract.
import assert from "node:assert/strict";
import { test } from "node:test";
import { serve } from "../../src/adapters/node.ts";
import { createClient } from "../../src/client/mod.ts";
import { memoryStore, rateLimit } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineError, defineRoutes } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;

const Missing = defineError("Missing", 404);
const Hello = defineEndpoint({
  errors: { Missing },
  call: (ep) => {
    if (ep.context.request.path.endsWith("/missing")) throw new Missing();
    return Response.json({ hello: true });
  },
});

test("rateLimit: max requests per window, RateLimit-* on every answer, then a 429 with Retry-After", async () => {
  const app = createApp();
  app.use(rateLimit({ windowMs: 60_000, max: 3 }));
  app.get("/*", Hello);
  const seen: [number, string | null, string | null][] = [];
  for (let i = 0; i < 5; i++) {
    const response = await app.request(i === 1 ? "/missing" : "/", {
      headers: { accept: "application/json" },
    });
    seen.push([
      response.status,
      response.headers.get("ratelimit-remaining"),
      response.headers.get("retry-after"),
    ]);
    if (response.status === 429) {
      const body = (await response.json()) as Json;
      assert.equal(body.error.name, "Too Many Requests");
      assert.equal(response.headers.get("ratelimit-limit"), "3");
      const reset = Number(response.headers.get("ratelimit-reset"));
      assert.ok(reset > 0 && reset <= 60, `reset ${reset}`);
    }
  }
  // A declared error of the route still counts, and carries the headers.
  assert.deepEqual(seen, [
    [200, "2", null],
    [404, "1", null],
    [200, "0", null],
    [429, "0", "60"],
    [429, "0", "60"],
  ]);
});

test("rateLimit: the window ends and counting starts again", async () => {
  const app = createApp();
  app.use(rateLimit({ windowMs: 150, max: 1 }));
  app.get("/", Hello);
  assert.equal((await app.request("/")).status, 200);
  assert.equal((await app.request("/")).status, 429);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal((await app.request("/")).status, 200);
});

test("rateLimit: clients are counted by their trusted address; IPv4-mapped IPv6 is IPv4; IPv6 by its /64", async () => {
  const store = memoryStore();
  const proxied = createApp({ trustProxy: { addresses: ["127.0.0.1"] } });
  proxied.use(rateLimit({ windowMs: 60_000, max: 1, store }));
  proxied.get("/", Hello);
  const direct = createApp();
  direct.use(rateLimit({ windowMs: 60_000, max: 1 }));
  direct.get("/", Hello);
  const a = await serve(proxied, { port: 0 });
  const b = await serve(direct, { port: 0 });
  try {
    const from = async (url: string | URL, forwarded: string) =>
      (await fetch(url, { headers: { "x-forwarded-for": forwarded } })).status;
    assert.equal(await from(a.url, "203.0.113.7"), 200);
    assert.equal(await from(a.url, "::ffff:203.0.113.7"), 429);
    // Only the first untrusted hop counts: what the client wrote to its left changes nothing.
    assert.equal(await from(a.url, "10.9.9.9, 203.0.113.8"), 200);
    assert.equal(await from(a.url, "10.9.9.10, 203.0.113.8"), 429);
    assert.equal(await from(a.url, "2001:db8:1:2::1"), 200);
    assert.equal(await from(a.url, "2001:DB8:1:2:ffff::9"), 429);
    assert.equal(await from(a.url, "2001:db8:1:3::1"), 200);
    assert.equal(await store.get("rate:2001:db8:1:2::/64"), "2");
    // Without trustProxy the header is the client's own words: one count for the connection's address.
    assert.equal(await from(b.url, "203.0.113.9"), 200);
    assert.equal(await from(b.url, "203.0.113.10"), 429);
  } finally {
    await a.close();
    await b.close();
  }
});

test("rateLimit: a key of the app's choosing, skip, and a store that fails (allowed and reported, or refused)", async () => {
  const app = createApp();
  app.use(
    rateLimit({
      windowMs: 60_000,
      max: 1,
      key: (ctx) => ctx.request.header("x-user") ?? "anonymous",
      skip: (ctx) => ctx.request.path === "/health",
    }),
  );
  app.get("/*", Hello);
  const as = (user: string, path = "/") => app.request(path, { headers: { "x-user": user } });
  assert.equal((await as("ada")).status, 200);
  assert.equal((await as("bo")).status, 200);
  assert.equal((await as("ada")).status, 429);
  assert.equal((await as("ada", "/health")).status, 200);

  const broken = {
    ...memoryStore(),
    increment: () => Promise.reject(new Error("store down")),
  };
  const reported: unknown[] = [];
  const open = createApp();
  open.use(
    rateLimit({ windowMs: 1000, max: 1, store: broken, onStoreError: (error) => void reported.push(error) }),
  );
  open.get("/", Hello);
  assert.equal((await open.request("/")).status, 200);
  assert.equal((await open.request("/")).status, 200);
  assert.equal(reported.length, 2);
  const shut = createApp();
  shut.use(rateLimit({ windowMs: 1000, max: 1, store: broken, onStoreError: () => "refuse" }));
  shut.get("/", Hello);
  assert.equal((await shut.request("/")).status, 503);
});

test("rateLimit: options are checked; the document shows the 429 and the headers; the client knows the error", async () => {
  assert.throws(() => rateLimit({ windowMs: 0, max: 1 }), /windowMs/);
  assert.throws(() => rateLimit({ windowMs: 1000, max: 1.5 }), /max/);
  const limited = rateLimit({ windowMs: 60_000, max: 1 });
  const api = defineRoutes({ hello: ["GET", "/hello", Hello] }, { use: [limited] });
  const app = createApp();
  app.mount("/", api);
  const document = openapi(app, { info: { title: "t", version: "1" } }) as Json;
  const responses = document.paths["/hello"].get.responses;
  assert.ok(responses["429"]);
  assert.ok(Object.keys(responses["200"].headers).includes("RateLimit-Remaining"));
  const client = createClient<typeof api>({ baseUrl: "http://x.test", routes: api, fetch: app.fetch });
  assert.equal((await client.hello()).ok, true);
  const refused = await client.hello();
  assert.equal(refused.ok, false);
  if (!refused.ok) {
    const name: "TooManyRequests" | "Missing" | "HttpError" = refused.error.name;
    assert.equal(name, "TooManyRequests");
  }
});

test("memoryStore: get/set/delete with expiry, an increment that keeps its window", async () => {
  const store = memoryStore({ maxKeys: 3 });
  await store.set("a", "1", 50);
  assert.equal(await store.get("a"), "1");
  await new Promise((resolve) => setTimeout(resolve, 70));
  assert.equal(await store.get("a"), undefined);
  const first = await store.increment("n", 1000);
  const second = await store.increment("n", 5000);
  assert.deepEqual([first.count, second.count], [1, 2]);
  assert.equal(second.resetAt, first.resetAt);
  assert.equal(await store.get("n"), "2");
  await store.delete("n");
  assert.equal((await store.increment("n", 1000)).count, 1);
  assert.throws(() => memoryStore({ maxKeys: 0 }), /maxKeys/);
  assert.throws(() => memoryStore({ maxValues: 1.5 }), /maxValues/);
});

test("memoryStore full of counters: expired windows go first, then the lowest counts; never one over its limit", async () => {
  const store = memoryStore({ maxKeys: 10 });
  await store.increment("short", 30, 5);
  for (let i = 0; i < 7; i++) await store.increment("hot", 60_000, 5); // 7 > 5: refused, kept
  for (let i = 0; i < 3; i++) await store.increment("busy", 60_000, 5);
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (let i = 0; i < 8; i++) await store.increment(`quiet${i}`, 60_000, 5);
  assert.equal(await store.get("short"), undefined, "the expired window went first");
  assert.equal(await store.get("busy"), "3");
  for (let i = 0; i < 500; i++) await store.increment(`other${i}`, 60_000, 5);
  assert.equal(await store.get("hot"), "7", "a client over its limit is never forgotten");
  assert.equal((await store.increment("hot", 60_000, 5)).count, 8);
  assert.equal(await store.get("busy"), "3", "a count of 3 outlived 500 counts of 1");
  assert.equal(await store.get("quiet0"), undefined, "the lowest counts went");
  // Every counter over its limit: a new key is not counted (the limiter reports it), none forgotten.
  const pinned = memoryStore({ maxKeys: 2 });
  for (const key of ["a", "b"]) for (let i = 0; i < 3; i++) await pinned.increment(key, 60_000, 1);
  await assert.rejects(
    pinned.increment("c", 60_000, 1),
    /full \(maxKeys: 2 counters, every one over its limit\)/,
  );
  assert.deepEqual([await pinned.get("a"), await pinned.get("b")], ["3", "3"]);
});

test("a rate limit at 429 stays at 429 however many other clients come, with memoryStore({ maxKeys })", async () => {
  const app = createApp();
  app.use(
    rateLimit({
      windowMs: 60_000,
      max: 2,
      store: memoryStore({ maxKeys: 20 }),
      key: (ctx) => ctx.request.header("x-client") ?? "",
    }),
  );
  app.get("/", () => new Response("ok"));
  const from = (client: string) => app.request("/", { headers: { "x-client": client } });
  for (let i = 0; i < 3; i++) await (await from("abuser")).arrayBuffer();
  for (let i = 0; i < 200; i++) await (await from(`visitor${i}`)).arrayBuffer();
  const again = await from("abuser");
  assert.equal(again.status, 429, "0.3.0's previews answered 200 here: the abuser had been evicted");
  await again.arrayBuffer();
});

test("memoryStore: values (sessions) have their own budget; never forgotten for counters; full is an error", async () => {
  const store = memoryStore({ maxKeys: 5, maxValues: 3 });
  for (const key of ["s1", "s2", "s3"]) await store.set(key, key, 100);
  for (let i = 0; i < 100; i++) await store.increment(`ip${i}`, 60_000, 10);
  assert.deepEqual([await store.get("s1"), await store.get("s2"), await store.get("s3")], ["s1", "s2", "s3"]);
  await assert.rejects(store.set("s4", "s4", 100), /full \(maxValues: 3 unexpired values\)/);
  await store.set("s2", "again", 100); // a key already held may be written
  assert.equal(await store.get("s2"), "again");
  await new Promise((resolve) => setTimeout(resolve, 120));
  await store.set("s4", "s4", 100);
  assert.equal(await store.get("s4"), "s4", "room once the others expired");
});

test("the IETF draft's RateLimit and RateLimit-Policy, alone or beside the older three", async () => {
  for (const headers of ["draft", "both"] as const) {
    const app = createApp();
    app.use(rateLimit({ windowMs: 60_000, max: 3, headers, policy: "api" }));
    app.get("/", () => new Response("ok"));
    const res = await app.request("/");
    assert.equal(res.headers.get("ratelimit-policy"), '"api";q=3;w=60');
    assert.match(res.headers.get("ratelimit")!, /^"api";r=2;t=(60|59)$/);
    assert.equal(res.headers.has("ratelimit-limit"), headers === "both");
    await res.arrayBuffer();
  }
  assert.throws(() => rateLimit({ windowMs: 1000, max: 1, headers: "new" as never }), /headers must be/);
  assert.throws(() => rateLimit({ windowMs: 1000, max: 1, policy: 'a"b' }), /policy must be/);
});
