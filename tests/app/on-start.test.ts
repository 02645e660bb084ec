// app.onStart(): run once, in order, before the app answers: by serve() before it listens (a failure
// rejects it), else by the first requests, which wait (a failure answers 503). serve()'s signal
// listeners: added by default, none with `signals: false`, removed by close().
import assert from "node:assert/strict";
import { test } from "node:test";
import { serve } from "../../src/adapters/node.ts";
import { createApp } from "../../src/mod.ts";

const quiet = { error() {}, warn() {}, info() {} };

test("onStart: serve() runs the hooks in order before it listens", async () => {
  const app = createApp({ logger: quiet });
  const order: string[] = [];
  app
    .onStart(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("database");
    })
    .onStart(() => void order.push("cache"));
  app.get("/", () => new Response(order.join(",")));
  const server = await serve(app, { port: 0 });
  assert.deepEqual(order, ["database", "cache"]);
  assert.equal(await (await fetch(server.url)).text(), "database,cache");
  await server.close();
  assert.throws(() => app.onStart(() => {}), /after the app has started/);
  assert.throws(() => app.onStart("nope" as never), /takes a function/);
});

test("onStart: a failing hook rejects serve() and nothing listens", async () => {
  const logged: string[] = [];
  const app = createApp({ logger: { ...quiet, error: (message) => void logged.push(message) } });
  app.onStart(() => {
    throw new Error("database unreachable");
  });
  await assert.rejects(serve(app, { port: 0 }), /database unreachable/);
  assert.deepEqual(logged, ["[portico] an onStart() callback failed"]);
});

test("onStart without serve(): concurrent first requests wait for one run; a failure answers 503", async () => {
  const app = createApp({ logger: quiet });
  let runs = 0;
  let ready = false;
  app.onStart(async () => {
    runs++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    ready = true;
  });
  app.get("/", () => new Response(String(ready)));
  const answers = await Promise.all([app.request("/"), app.request("/"), app.request("/")]);
  assert.deepEqual(await Promise.all(answers.map((res) => res.text())), ["true", "true", "true"]);
  assert.equal(runs, 1);
  assert.equal(
    app.fetch(new Request("http://localhost/")) instanceof Response,
    true,
    "then synchronous again",
  );

  const broken = createApp({ logger: quiet });
  broken.onStart(() => Promise.reject(new Error("no")));
  broken.get("/", () => new Response("never"));
  const res = await broken.request("/");
  assert.deepEqual([res.status, await res.text()], [503, "The app failed to start"]);
});

test("signals: serve() listens to SIGTERM and SIGINT until closed; `signals: false` leaves them alone", async () => {
  const count = () => [process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")];
  const before = count();
  const app = createApp({ logger: quiet });
  const first = await serve(app, { port: 0 });
  const second = await serve(createApp({ logger: quiet }), { port: 0 });
  assert.deepEqual(count(), [before[0]! + 1, before[1]! + 1], "one listener per signal for all servers");
  await first.close();
  assert.deepEqual(count(), [before[0]! + 1, before[1]! + 1]);
  await second.close();
  assert.deepEqual(count(), before);
  const untouched = await serve(createApp({ logger: quiet }), { port: 0, signals: false });
  assert.deepEqual(count(), before);
  await untouched.close();
  await assert.rejects(serve(createApp(), { port: 0, signals: ["SIGKILL" as never] }), /not a signal/);
});
