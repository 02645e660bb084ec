// The sequencer at its edges (found by the mutation run, bench/MUTATION.md): the socket an instance's
// own message leaves out, and its bound; leaving a topic; a history read page by page; reads that fail
// (tried again after a wait, given up at once when too much waits, not after the app closed or the topic
// was left); a hole the history no longer has, counted once.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PubSubStats } from "../../src/pubsub/driver.ts";
import type { HistoryEntry, HistoryRead, HistoryStore } from "../../src/pubsub/history.ts";
import { Sequencer } from "../../src/pubsub/sequencer.ts";

const settle = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));
const entry = (seq: number, from = "other", skip?: number): HistoryEntry => ({
  seq,
  message: `m${seq}`,
  from,
  skip,
});

/** A history holding `kept` (epoch "e"), read in pages of at most `limit`; reads and appends are kept. */
function history(kept: number[]) {
  const log = { reads: 0, appended: [] as (number | undefined)[] };
  const store: HistoryStore = {
    append: (_topic, _message, skip) => log.appended.push(skip),
    read: (_topic, _epoch, after, limit): Promise<HistoryRead> => {
      log.reads++;
      return Promise.resolve({
        epoch: "e",
        entries: kept
          .filter((s) => s > after)
          .slice(0, limit)
          .map((s) => entry(s)),
      });
    },
  };
  return { store, log };
}

/** A history whose every read fails; `reads` counts them. */
function failing(): { store: HistoryStore; reads: () => number } {
  let reads = 0;
  const store: HistoryStore = {
    append() {},
    read: () => {
      reads++;
      return Promise.reject(new Error("down"));
    },
  };
  return { store, reads: () => reads };
}

function sequencer(store: HistoryStore, size = 100) {
  const stats: PubSubStats = { published: 0, delivered: 0, dropped: 0, received: 0, missed: 0 };
  const errors: string[] = [];
  const lines = new Sequencer({
    size,
    instance: () => "me",
    stats,
    error: (message) => errors.push(message),
  });
  lines.store = store;
  const got = new Map<object, string[]>();
  const join = (subscriber: object = {}) => {
    got.set(subscriber, []);
    lines.add("t", subscriber, (message) => got.get(subscriber)!.push(String(message)));
    return subscriber;
  };
  const live = (e: HistoryEntry) => lines.receive("t", "e", e);
  return { lines, stats, errors, got, join, live };
}

describe("the sequencer", () => {
  test("an instance's own message leaves out the socket it names, once, and only its own", () => {
    const { store, log } = history([]);
    const { lines, got, join, live } = sequencer(store);
    const sender = join();
    const other = join();
    lines.publish("t", "hello", sender);
    assert.deepEqual(log.appended, [0]);
    live(entry(1, "me", 0));
    // Another instance's message that carries the same token leaves no one out.
    live(entry(2, "another", 0));
    // The token was used: the same number from this instance again leaves no one out either.
    live(entry(3, "me", 0));
    live(entry(4, "me"));
    assert.deepEqual(got.get(sender), ["m2", "m3", "m4"]);
    assert.deepEqual(got.get(other), ["m1", "m2", "m3", "m4"]);
  });

  test("a delivery counts unless the subscriber says it could not take the message", () => {
    const { store } = history([]);
    const { lines, stats, live } = sequencer(store);
    const taken: string[] = [];
    lines.add("t", {}, (message) => void taken.push(String(message)));
    lines.add("t", {}, (message) => void taken.push(String(message)));
    lines.add("t", {}, () => false); // a socket that is gone
    live(entry(1));
    live(entry(2));
    assert.deepEqual(taken, ["m1", "m1", "m2", "m2"]);
    assert.equal(stats.delivered, 4);
  });

  test("the tokens of messages that never came back are bounded: the oldest is forgotten past 10,000", () => {
    const { store } = history([]);
    const { lines, got, join, live } = sequencer(store);
    const sender = join();
    for (let i = 0; i <= 10_000; i++) lines.publish("t", "dropped on the way", sender);
    live(entry(1, "me", 0)); // forgotten: the sender gets it
    live(entry(2, "me", 1)); // still known: left out
    live(entry(3, "me", 10_000));
    assert.deepEqual(got.get(sender), ["m1"]);
  });

  test("a subscriber leaves; the topic is dropped with its last one", () => {
    const { store } = history([]);
    const { lines, join } = sequencer(store);
    const a = join();
    const b = join();
    assert.equal(lines.remove("t", {}), false, "not a member");
    assert.equal(lines.remove("other", a), false, "not a topic here");
    assert.equal(lines.remove("t", a), true);
    assert.equal(lines.remove("t", a), false, "already left");
    assert.equal(lines.has("t"), true);
    assert.equal(lines.remove("t", b), true);
    assert.equal(lines.has("t"), false);
  });

  test("a hole longer than a read is read page by page before what came after it", async () => {
    const { store, log } = history([1, 2, 3, 4, 5, 6, 7]);
    const { got, join, live, stats } = sequencer(store, 2);
    const s = join();
    live(entry(1));
    live(entry(7));
    await settle();
    assert.deepEqual(got.get(s), ["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
    assert.equal(stats.missed, 0);
    assert.equal(log.reads, 4); // 2-3, 4-5, 6-7, then nothing more
  });

  test("a hole the history no longer has is counted once, with the message after it delivered", async () => {
    const { store, log } = history([7]);
    const { got, join, live, stats, errors } = sequencer(store);
    const s = join();
    live(entry(1));
    live(entry(9)); // 2 to 6 expired; 8 never reached the history
    await settle(30);
    assert.deepEqual(got.get(s), ["m1", "m7", "m9"]);
    assert.equal(stats.missed, 6);
    assert.equal(log.reads, 1);
    assert.equal(errors.length, 2);
  });

  test("a failing read is tried again after a wait; with a read's worth waiting it is given up at once", async () => {
    const history = failing();
    const { got, join, live, stats, errors } = sequencer(history.store, 2);
    const s = join();
    live(entry(1));
    live(entry(3)); // a hole: read, which fails
    await settle(30);
    assert.equal(history.reads(), 1, "the next try waits 100 ms");
    live(entry(4));
    live(entry(5)); // a read's worth (2) waits: the next failure gives up
    await settle(200);
    assert.equal(history.reads(), 2);
    assert.deepEqual(got.get(s), ["m1", "m3", "m4", "m5"]);
    assert.equal(stats.missed, 2, "2, and what the failure leaves unknown");
    assert.match(errors.join("\n"), /missed an unknown number of message/);
  });

  test("a read that failed is not tried again once the app closes or the topic is left", async () => {
    for (const stop of ["close", "leave"] as const) {
      const history = failing();
      const { lines, join, live, stats } = sequencer(history.store);
      const s = join();
      live(entry(1));
      live(entry(3));
      await settle();
      if (stop === "close") lines.close();
      else lines.remove("t", s);
      await settle(250);
      assert.equal(history.reads(), 1, stop);
      assert.equal(stats.missed, stop === "close" ? 1 : 0, stop);
    }
  });

  test("a read given up after the topic was left counts nothing", async () => {
    let fail: (error: Error) => void = () => {};
    const failing: HistoryStore = {
      append() {},
      read: () => new Promise((_resolve, reject) => (fail = reject)),
    };
    const { lines, join, live, stats, errors } = sequencer(failing, 1);
    const s = join();
    live(entry(1));
    live(entry(3)); // a read's worth (1) waits: a failure gives up at once
    lines.remove("t", s);
    fail(new Error("down"));
    await settle();
    assert.deepEqual([stats.missed, errors], [0, []]);
  });

  test("a read answered after the topic was left delivers nothing and counts nothing", async () => {
    let answer: (read: HistoryRead) => void = () => {};
    const slow: HistoryStore = {
      append() {},
      read: () => new Promise((resolve) => (answer = resolve)),
    };
    const { lines, got, join, live, stats, errors } = sequencer(slow);
    const s = join();
    live(entry(1));
    live(entry(9));
    lines.remove("t", s);
    answer({ epoch: "e", entries: [entry(7)] });
    await settle();
    assert.deepEqual(got.get(s), ["m1"]);
    assert.deepEqual([stats.missed, errors], [0, []]);
  });
});
