// health(): liveness, and readiness from the app's own checks (passing, failing, throwing, too slow) and
// its topic backplane — a real Redis client pointed at a port nobody serves is not ready; one run shared by
// concurrent requests, `cacheMs`, and the signal a check is given, aborted at the timeout.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import { health } from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";

// biome-ignore lint/suspicious/noExplicitAny: answers are read as untyped JSON here.
type Json = any;

test("health: live always; ready when every check passes, else a 503 naming which failed and how", async () => {
  let dbUp = true;
  const { live, ready } = health({
    checks: {
      db: async () => {
        if (!dbUp) throw new Error("connection refused to 10.0.0.7:5432");
      },
      cache: () => true,
      slow: () => new Promise((resolve) => setTimeout(resolve, dbUp ? 1 : 2000)),
    },
    timeoutMs: 100,
  });
  const app = createApp();
  app.get("/livez", live);
  app.get("/readyz", ready);
  const livez = await app.request("/livez");
  assert.deepEqual(
    [livez.status, livez.headers.get("cache-control"), await livez.json()],
    [200, "no-store", { status: "live" }],
  );
  const fine = await app.request("/readyz");
  const body = (await fine.json()) as Json;
  assert.equal(fine.status, 200);
  assert.equal(body.status, "ready");
  assert.deepEqual(Object.keys(body.checks).sort(), ["cache", "db", "slow"]);
  dbUp = false;
  const started = Date.now();
  const down = await app.request("/readyz");
  const text = await down.text();
  // Cut at its 100 ms timeout, well before the check's 2 s (a margin for a loaded machine).
  assert.ok(Date.now() - started < 1500, "a slow check is cut at its timeout");
  assert.equal(down.status, 503);
  const checks = JSON.parse(text).checks;
  assert.deepEqual(
    [checks.db.ok, checks.db.error, checks.slow.error, checks.cache.ok],
    [false, "failed", "timed out", true],
  );
  assert.doesNotMatch(text, /10\.0\.0\.7/, "the failure's details are not shown");
  assert.throws(() => health({ timeoutMs: 0 }), /timeoutMs/);
});

test("health: fifty concurrent requests share one run of the checks; the next request runs them again", async () => {
  let runs = 0;
  const { ready } = health({
    checks: {
      db: async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    },
  });
  const app = createApp();
  app.get("/readyz", ready);
  const answers = await Promise.all(Array.from({ length: 50 }, () => app.request("/readyz")));
  assert.equal(runs, 1);
  assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
  const bodies = await Promise.all(answers.map(async (answer) => ((await answer.json()) as Json).status));
  assert.deepEqual(new Set(bodies), new Set(["ready"]), "each caller gets its own readable answer");
  await app.request("/readyz");
  assert.equal(runs, 2, "without cacheMs, only runs in flight are shared");
});

test("health: cacheMs keeps the last result (a 503 too) that long after the run ended", async (t) => {
  let now = 1_000_000;
  t.mock.method(Date, "now", () => now);
  let runs = 0;
  let up = false;
  const { ready } = health({
    checks: {
      db: () => {
        runs++;
        return up;
      },
    },
    cacheMs: 1000,
  });
  const app = createApp();
  app.get("/readyz", ready);
  assert.equal((await app.request("/readyz")).status, 503);
  up = true;
  now += 999;
  assert.equal((await app.request("/readyz")).status, 503, "the cached answer");
  assert.equal(runs, 1);
  now += 1;
  assert.equal((await app.request("/readyz")).status, 200);
  assert.equal(runs, 2);
  assert.throws(() => health({ cacheMs: -1 }), /cacheMs/);
});

test("health: a check is given a signal, aborted at the timeout; one that honours it stops there", async () => {
  let seen: AbortSignal | undefined;
  let stoppedAfter: number | undefined;
  const started = Date.now();
  const { ready } = health({
    checks: {
      db: (signal) =>
        new Promise((_resolve, reject) => {
          seen = signal;
          signal.addEventListener("abort", () => {
            stoppedAfter = Date.now() - started;
            reject(signal.reason);
          });
        }),
      cache: () => true,
    },
    timeoutMs: 50,
  });
  const app = createApp();
  app.get("/readyz", ready);
  const answer = await app.request("/readyz");
  const text = await answer.text();
  assert.equal(answer.status, 503);
  const { checks } = JSON.parse(text);
  assert.deepEqual([checks.db.ok, checks.db.error, checks.cache.ok], [false, "timed out", true]);
  assert.doesNotMatch(text, /TimeoutError|aborted/, "the abort's reason is not shown");
  assert.equal(seen?.aborted, true);
  assert.equal((seen?.reason as Error | undefined)?.name, "TimeoutError");
  assert.ok(
    stoppedAfter !== undefined && stoppedAfter >= 45 && stoppedAfter < 400,
    `stopped after ${stoppedAfter} ms`,
  );
  const quick: AbortSignal[] = [];
  const fast = health({ checks: { db: (signal) => void quick.push(signal) } });
  app.get("/fast", fast.ready);
  assert.equal((await app.request("/fast")).status, 200);
  assert.equal(quick[0]?.aborted, false, "a run that ended in time aborts nothing");
});

test("health: an app whose topic backplane is not connected is not ready", async () => {
  const closed = await new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const app = createApp({
    pubsub: redisPubSub({ url: `redis://127.0.0.1:${closed}` }),
    logger: { error: () => {}, warn: () => {}, info: () => {} },
  });
  const { ready } = health({ app });
  app.get("/readyz", ready);
  try {
    const answer = await app.request("/readyz");
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as Json).checks.topics.ok, false);
    const standalone = createApp();
    standalone.get("/readyz", health({ app: standalone }).ready);
    assert.equal((await standalone.request("/readyz")).status, 200);
  } finally {
    await app.close();
  }
  assert.throws(() => health({ app, checks: { topics: () => true } }), /"topics"/);
});
