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

test("signals: serve() listens to SIGTERM and SIGINT until closed; `signals: false` leaves them alone", async (t) => {
  // Another file's server may be open in this process (the mutation runner imports several test files
  // into one): the defaults are checked against what was there before, and "one listener for every
  // server" on two signals nothing else here uses.
  const count = (signals: readonly string[]) => signals.map((signal) => process.listenerCount(signal));
  const defaults = ["SIGTERM", "SIGINT"];
  const own = ["SIGHUP", "SIGUSR2"] as const;
  const before = { defaults: count(defaults), own: count(own) };
  const opened: { close(): Promise<void> }[] = [];
  t.after(() => Promise.all(opened.map((server) => server.close())));
  const open = async (options: Parameters<typeof serve>[1]) => {
    const server = await serve(createApp({ logger: quiet }), options);
    opened.push(server);
    return server;
  };

  const plain = await open({ port: 0 });
  for (const [i, n] of count(defaults).entries()) assert.ok(n >= 1 && n <= before.defaults[i]! + 1);
  await plain.close();
  assert.deepEqual(count(defaults), before.defaults, "close() removes what serve() added");

  const first = await open({ port: 0, signals: [...own] });
  const second = await open({ port: 0, signals: [...own] });
  assert.deepEqual(
    count(own),
    before.own.map((n) => n + 1),
    "one listener per signal for all servers",
  );
  await first.close();
  assert.deepEqual(
    count(own),
    before.own.map((n) => n + 1),
  );
  await second.close();
  assert.deepEqual(count(own), before.own);

  const untouched = await open({ port: 0, signals: false });
  assert.deepEqual(count(defaults), before.defaults);
  assert.deepEqual(count(own), before.own);
  await untouched.close();
  await assert.rejects(serve(createApp(), { port: 0, signals: ["SIGKILL" as never] }), /not a signal/);
});
