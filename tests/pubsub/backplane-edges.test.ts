// The backplane at its edges (found by the mutation run, bench/MUTATION.md), with a driver written here:
// what comes back from the broker (another instance's frames, this instance's numbered ones, never its own
// echo), reading a history (decoded, in time, or a clear failure), a driver that keeps half a history,
// unsubscribing, a publish the driver refuses at once, what a drop and a return say, the connection's
// state as the driver reports it, and the outbox's clock.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Backplane } from "../../src/pubsub/backplane.ts";
import type { PubSubDriver, PubSubStats } from "../../src/pubsub/driver.ts";
import { type DecodedFrame, encodeFrame, openFrame } from "../../src/pubsub/frame.ts";
import { Outbox } from "../../src/pubsub/outbox.ts";

const numbered = (from: string, message: string, at: string): Uint8Array => {
  const { head, body } = openFrame(from, message);
  const closed = new TextEncoder().encode(`${head},"at":"${at}"}\n`);
  const frame = new Uint8Array(closed.byteLength + body.byteLength);
  frame.set(closed);
  frame.set(body, closed.byteLength);
  return frame;
};

/** A backplane over a driver the test controls. */
function setup(overrides: Partial<PubSubDriver> = {}, history = false) {
  const calls: string[] = [];
  const received: string[] = [];
  const infos: string[] = [];
  const errors: unknown[] = [];
  let deliver: (topic: string, frame: Uint8Array) => void = () => {};
  let status: (connected: boolean) => void = () => {};
  const driver: PubSubDriver = {
    onError: (error) => errors.push(error),
    start(receive, _report, onStatus) {
      deliver = receive;
      status = onStatus ?? status;
    },
    subscribe: (topic) => void calls.push(`subscribe ${topic}`),
    unsubscribe: (topic) => void calls.push(`unsubscribe ${topic}`),
    publish: () => true,
    close: async () => {},
    ...overrides,
  };
  const stats: PubSubStats = { published: 0, delivered: 0, dropped: 0, received: 0, missed: 0 };
  const backplane = new Backplane(
    driver,
    stats,
    () => "me",
    (topic, frame: DecodedFrame) => received.push(`${topic} ${String(frame.message)} ${frame.at ?? "-"}`),
    { error: (_m, error) => errors.push(error), info: (m) => infos.push(m) },
    history ? { size: 10, ttl: 60 } : undefined,
  );
  return {
    backplane,
    calls,
    received,
    infos,
    errors,
    stats,
    deliver: (t: string, f: Uint8Array) => deliver(t, f),
    status: (c: boolean) => status(c),
  };
}

describe("the backplane", () => {
  test("another instance's frames and this instance's numbered ones are received; its own echo and junk are not", () => {
    const b = setup();
    b.deliver("t", encodeFrame("other", "from another"));
    b.deliver("t", encodeFrame("me", "my own echo"));
    b.deliver("t", numbered("me", "mine, numbered", "e:1"));
    b.deliver("t", new TextEncoder().encode("not a frame"));
    assert.deepEqual(b.received, ["t from another -", "t mine, numbered e:1"]);
  });

  test("a history is read decoded; frames without a position are left out", async () => {
    const b = setup(
      {
        append: async () => true,
        read: async () => ({
          epoch: "e",
          frames: [
            numbered("other", "one", "e:1"),
            encodeFrame("other", "no position"),
            numbered("other", "bad position", "nonsense"),
            new TextEncoder().encode("junk"),
            numbered("me", "two", "e:2"),
          ],
        }),
      },
      true,
    );
    const read = await b.backplane.read("t", "e", 0, 10);
    assert.deepEqual(read, {
      epoch: "e",
      entries: [
        { seq: 1, message: "one", from: "other", skip: undefined },
        { seq: 2, message: "two", from: "me", skip: undefined },
      ],
    });
  });

  test("a history read that fails or does not answer within the publish timeout is a clear error", async () => {
    const failing = setup({ append: async () => true, read: () => Promise.reject(new Error("down")) }, true);
    await assert.rejects(failing.backplane.read("t", "e", 0, 10), /history of topic "t" could not be read/);
    const silent = setup(
      { limits: { publishTimeout: 30 }, append: async () => true, read: () => new Promise(() => {}) },
      true,
    );
    await assert.rejects(
      silent.backplane.read("t", "e", 0, 10),
      /history of topic "t" could not be read in time/,
    );
  });

  test("a history needs both append and read", () => {
    for (const half of [{ append: async () => true }, { read: async () => ({ epoch: "", frames: [] }) }]) {
      assert.throws(() => setup(half, true), /keeps no history/);
    }
  });

  test("unsubscribing reaches the driver", async () => {
    const b = setup();
    await b.backplane.subscribe("t");
    b.backplane.unsubscribe("t");
    assert.deepEqual(b.calls, ["subscribe t", "unsubscribe t"]);
  });

  test("a publish the driver refuses at once is dropped and reported; the message says why", () => {
    const refusing = setup({ publish: () => false });
    refusing.backplane.send("t", "m");
    assert.equal(refusing.stats.dropped, 1);
    assert.match((refusing.errors[0] as Error).message, /dropped \(the broker is unreachable\)/);
    const throwing = setup({
      publish: () => {
        throw new Error("socket closed");
      },
    });
    throwing.backplane.send("t", "m");
    assert.match(
      (throwing.errors[0] as Error).message,
      /^Publishes to other instances are dropped \(socket closed\);/,
    );
  });

  test("the end of a run of drops says how long it lasted", async () => {
    let ok = false;
    const b = setup({ publish: () => ok });
    b.backplane.send("t", "lost");
    await new Promise((resolve) => setTimeout(resolve, 20));
    ok = true;
    b.backplane.send("t", "through");
    assert.equal(b.infos.length, 1);
    const ms = Number(/1 message\(s\) dropped in (\d+) ms/.exec(b.infos[0]!)?.[1]);
    assert.ok(ms >= 15 && ms < 5000, b.infos[0]);
  });

  test("the connection's state follows the driver: connected until it says otherwise, news only after a loss", () => {
    const b = setup();
    let reconnected = 0;
    b.backplane.onReconnected = () => reconnected++;
    assert.equal(b.backplane.health.connected, true, "connected until the driver says otherwise");
    const since = b.backplane.health.since;
    b.status(true); // the same state: nothing changes
    assert.equal(b.backplane.health.since, since);
    b.status(false); // a driver that starts by saying "not yet"
    b.status(true); // its first connection: not news
    assert.deepEqual([b.infos, reconnected], [[], 0]);
    b.status(true);
    b.status(false); // lost
    b.status(true); // back: logged, and the topics with a history catch up
    assert.equal(reconnected, 1);
    assert.equal(b.infos.length, 1);
    assert.match(b.infos[0]!, /^\[portico\] pubsub backplane connected again after \d+ ms$/);
  });
});

describe("the outbox's clock", () => {
  test("each tick counts at most two ticks of awake time, so a blocked loop is not charged to the broker", () => {
    const original = {
      setInterval: globalThis.setInterval,
      clearInterval: globalThis.clearInterval,
      now: performance.now,
    };
    let check: () => void = () => {};
    let now = 0;
    globalThis.setInterval = ((fn: () => void) => {
      check = fn;
      return 1;
    }) as unknown as typeof setInterval;
    globalThis.clearInterval = (() => {}) as typeof clearInterval;
    performance.now = () => now;
    try {
      let stalls = 0;
      const outbox = new Outbox({ maxQueued: 10, publishTimeout: 80 }, () => stalls++); // ticks of 10 ms
      outbox.add();
      now = 1000; // the loop was blocked for a second
      check(); // counts 20 ms
      for (let i = 0; i < 5; i++) {
        now += 10;
        check();
      }
      assert.equal(stalls, 0, "70 ms of awake time");
      now += 10;
      check();
      assert.equal(stalls, 1, "80 ms: stalled");
    } finally {
      Object.assign(globalThis, { setInterval: original.setInterval, clearInterval: original.clearInterval });
      performance.now = original.now;
    }
  });
});
