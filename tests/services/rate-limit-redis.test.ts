// rateLimit() and session() on redisStore() against a real redis-server: two instances (each its own app, server and
// connection) share one limit; the store's own contract; and an outage: requests neither hang nor fail,
// they go through uncounted and are reported, and counting resumes when Redis is back.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { serve } from "../../src/adapters/node.ts";
import { rateLimit, redisStore } from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";
import { session } from "../../src/session/session.ts";
import { BROKERS, freePort, stopBroker, until } from "./brokers.ts";

const redis = BROKERS.find((broker) => broker.name === "Redis")!;
let port: number;
let server: Awaited<ReturnType<typeof redis.start>>;

before(async () => {
  port = await freePort();
  server = await redis.start(port);
});
after(async () => {
  await stopBroker(server);
});

function instance(url: string, reported: unknown[] = []) {
  const store = redisStore({ url, prefix: `test-${port}:`, timeoutMs: 500 });
  const app = createApp();
  app.use(rateLimit({ windowMs: 60_000, max: 5, store, onStoreError: (error) => void reported.push(error) }));
  app.get("/", () => new Response("ok"));
  return { app, store, reported };
}

test("redisStore: two instances share one limit", async () => {
  const url = `redis://127.0.0.1:${port}`;
  const one = instance(url);
  const two = instance(url);
  const a = await serve(one.app, { port: 0 });
  const b = await serve(two.app, { port: 0 });
  try {
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await fetch(i % 2 === 0 ? a.url : b.url);
      statuses.push(response.status);
      remaining.push(response.headers.get("ratelimit-remaining"));
      await response.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    assert.deepEqual(remaining, ["4", "3", "2", "1", "0", "0", "0", "0"]);
    assert.deepEqual([one.reported, two.reported], [[], []]);
  } finally {
    await a.close();
    await b.close();
    await one.store.close();
    await two.store.close();
  }
});

test("redisStore: get, set with expiry, delete, and an increment that keeps its window", async () => {
  const store = redisStore({ url: `redis://127.0.0.1:${port}`, prefix: "contract:" });
  try {
    await store.set("a", "1", 100);
    assert.equal(await store.get("a"), "1");
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(await store.get("a"), undefined);
    const first = await store.increment("n", 1000);
    const second = await store.increment("n", 60_000);
    assert.deepEqual([first.count, second.count], [1, 2]);
    assert.ok(Math.abs(second.resetAt - first.resetAt) < 100);
    await store.delete("n");
    assert.equal((await store.increment("n", 1000)).count, 1);
  } finally {
    await store.close();
  }
  await assert.rejects(store.get("a"), /closed/);
});

test("redisStore: during an outage requests go through uncounted and reported; counting resumes after", async () => {
  const outagePort = await freePort();
  let broker = await redis.start(outagePort);
  const { app, store, reported } = instance(`redis://127.0.0.1:${outagePort}`);
  const served = await serve(app, { port: 0 });
  try {
    assert.equal((await fetch(served.url)).headers.get("ratelimit-remaining"), "4");
    await stopBroker(broker);
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(served.url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("ratelimit-remaining"), null);
    }
    assert.ok(Date.now() - started < 5000, "no request waited for Redis beyond the store's timeout");
    assert.equal(reported.length, 3);
    broker = await redis.start(outagePort);
    // A fresh server: the count starts again once the client has reconnected.
    await until(
      async () => (await fetch(served.url)).headers.get("ratelimit-remaining") !== null,
      "counting to resume",
    );
  } finally {
    await served.close();
    await store.close();
    await stopBroker(broker);
  }
});

test("session() on redisStore: a session made on one instance is read on another; destroyed on one, gone on both", async () => {
  const url = `redis://127.0.0.1:${port}`;
  const instances = [0, 1].map(() => {
    const store = redisStore({ url, prefix: `session-${port}:`, timeoutMs: 500 });
    const app = createApp();
    app.use(session({ store }));
    app.get("/visit", (ctx) => {
      const data = ctx.session.data as { visits?: number };
      data.visits = (data.visits ?? 0) + 1;
      return new Response(String(data.visits));
    });
    app.post("/logout", (ctx) => {
      ctx.session.destroy();
      return new Response("out");
    });
    return { app, store };
  });
  const [one, two] = await Promise.all(instances.map((i) => serve(i.app, { port: 0, signals: false })));
  try {
    const first = await fetch(new URL("/visit", one!.url));
    const cookie = first.headers.getSetCookie()[0]!.split(";")[0]!;
    assert.equal(await first.text(), "1");
    assert.equal(await (await fetch(new URL("/visit", two!.url), { headers: { cookie } })).text(), "2");
    await (await fetch(new URL("/logout", two!.url), { method: "POST", headers: { cookie } })).arrayBuffer();
    assert.equal(await (await fetch(new URL("/visit", one!.url), { headers: { cookie } })).text(), "1");
  } finally {
    await Promise.all([one!.close(), two!.close()]);
    await Promise.all(instances.map((i) => i.store.close()));
  }
});
