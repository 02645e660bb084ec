// The backplane below any broker, with a driver written here: the outbox's bound and its clock, drops
// counted and reported once per run, health, the order of the broker's copy and the local ones, close.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, type PubSubDriver } from "../../src/mod.ts";
import { Outbox } from "../../src/pubsub/outbox.ts";

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // A handler doing synchronous work.
  }
};

/** A driver whose broker answers when told to; what it was given is kept in `sent`. */
function driver(limits: PubSubDriver["limits"] = {}) {
  const sent: string[] = [];
  const answers: ((ok: boolean) => void)[] = [];
  let status: (connected: boolean) => void = () => {};
  const errors: unknown[] = [];
  const self = {
    sent,
    answers,
    errors,
    reconnects: 0,
    closed: false,
    setConnected: (connected: boolean) => status(connected),
    answerAll(ok = true) {
      for (const answer of answers.splice(0)) answer(ok);
    },
    driver: {
      limits,
      onError: (error: unknown) => errors.push(error),
      start(_receive, _report, onStatus) {
        status = onStatus ?? status;
      },
      subscribe() {},
      unsubscribe() {},
      publish(_topic, frame) {
        sent.push(new TextDecoder().decode(frame).split("\n")[1]!);
        return new Promise<boolean>((resolve) => answers.push(resolve));
      },
      reconnect() {
        self.reconnects++;
        self.answerAll(false);
      },
      async close() {
        self.closed = true;
      },
    } satisfies PubSubDriver,
  };
  return self;
}

test("the outbox refuses more than maxQueued at a time, and has room again once answered", () => {
  const outbox = new Outbox({ maxQueued: 3, publishTimeout: 1000 }, () => assert.fail("no stall"));
  const ids = [outbox.add(), outbox.add(), outbox.add()];
  assert.equal(outbox.full, true);
  outbox.settle(ids[0]!);
  assert.equal(outbox.full, false);
  assert.equal(outbox.size, 2);
  for (const id of ids) outbox.settle(id);
  assert.equal(outbox.size, 0);
});

test("the outbox does not charge the broker for time the event loop was blocked; a silent broker stalls", async () => {
  let stalls = 0;
  const outbox = new Outbox({ maxQueued: 10, publishTimeout: 80 }, () => stalls++);
  const answered = outbox.add();
  // The loop is blocked for 4× the timeout; the answer is read right after, as I/O would be.
  busy(320);
  setImmediate(() => outbox.settle(answered));
  await pause(60);
  assert.equal(stalls, 0, "an answer read after a blocked loop is not a timeout");
  const silent = outbox.add();
  await pause(400);
  assert.ok(stalls >= 1, "a broker silent for the timeout of awake time is stalled");
  outbox.settle(silent);
});

test("a run of drops is counted, reported once, and its end logged with the count", async () => {
  const broker = driver({ maxQueued: 2 });
  const infos: string[] = [];
  const app = createApp({ pubsub: broker.driver, logger: { error: () => {}, info: (m) => infos.push(m) } });
  for (let i = 0; i < 5; i++) app.publish("t", `m${i}`);
  assert.deepEqual(broker.sent, ["m0", "m1"], "two handed over, the others over the bound");
  assert.equal(app.topicStats.dropped, 3);
  assert.equal(app.topicHealth().queued, 2);
  assert.equal(broker.errors.length, 1, "one report for the run");
  assert.match(String((broker.errors[0] as Error).message), /2 publishes wait for the broker's answer/);
  broker.answerAll();
  await pause(0);
  assert.equal(app.topicHealth().queued, 0);
  assert.equal(infos.length, 1);
  assert.match(infos[0]!, /publishing again: 3 message\(s\) dropped/);
  assert.equal(app.topicHealth().lastError, (broker.errors[0] as Error).message);
});

test("a broker that stops answering is reconnected; what waited is dropped; health follows the driver", async () => {
  const broker = driver({ publishTimeout: 60 });
  const app = createApp({ pubsub: broker.driver, logger: { error: () => {}, info: () => {} } });
  broker.setConnected(false);
  broker.setConnected(true);
  const since = app.topicHealth().since;
  app.publish("t", "lost");
  await pause(300);
  assert.equal(broker.reconnects, 1);
  assert.equal(app.topicStats.dropped, 1);
  assert.equal(app.topicHealth().connected, false);
  assert.ok(app.topicHealth().since >= since);
  assert.match(String((broker.errors[0] as Error).message), /has not answered a publish for 60 ms/);
  assert.match(String(app.topicHealth().lastError), /Publishes to other instances are dropped/);
  broker.setConnected(true);
  assert.equal(app.topicHealth().connected, true);
});

test("the broker gets its copy before the local subscribers get theirs", () => {
  const broker = driver();
  const app = createApp({ pubsub: broker.driver, logger: { error: () => {} } });
  const order: string[] = [];
  app.subscribe("t", () => order.push(`local, broker had ${broker.sent.length}`));
  app.publish("t", "m");
  assert.deepEqual(order, ["local, broker had 1"]);
  broker.answerAll();
});

test("app.close() waits for the broker's answers, then closes the driver; later publishes are dropped", async () => {
  const broker = driver();
  const app = createApp({ pubsub: broker.driver, logger: { error: () => {}, info: () => {} } });
  app.publish("t", "in flight");
  const closing = app.close();
  await pause(20);
  assert.equal(broker.closed, false, "still waiting for the answer");
  broker.answerAll();
  await closing;
  assert.equal(broker.closed, true);
  assert.equal(app.close(), closing, "idempotent");
  app.publish("t", "late");
  assert.equal(app.topicStats.dropped, 1);
});

test("without a backplane: healthy since the app was made, nothing queued, close() resolves", async () => {
  const app = createApp();
  assert.deepEqual(
    { ...app.topicHealth(), since: 0 },
    { connected: true, since: 0, lastError: undefined, queued: 0 },
  );
  await app.close();
});

test("topicEmitter({ history }) needs a driver that keeps one, and says so", async () => {
  const { topicEmitter } = await import("../../src/pubsub/emitter.ts");
  const plain = driver().driver;
  assert.throws(() => topicEmitter(plain, { history: { topics: ["kept:*"] } }), /keeps no history/);
  // Without `history`, the same driver is fine.
  const emitter = topicEmitter(plain, { onError: () => {} });
  await emitter.close();
});
