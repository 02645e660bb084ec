// Topics with a history, below any broker: positions, replay with `since`, gaps said, and the order an
// instance keeps when its broker connection loses or repeats messages.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, type Recovery } from "../../src/mod.ts";
import type { PubSubStats } from "../../src/pubsub/driver.ts";
import type { HistoryEntry, HistoryRead, HistoryStore } from "../../src/pubsub/history.ts";
import { Sequencer } from "../../src/pubsub/sequencer.ts";

const received = () => {
  const got: [string, string | undefined][] = [];
  return { got, listener: (message: unknown, position?: string) => got.push([String(message), position]) };
};
const seqOf = (position: string | undefined) => Number(position?.split(":")[1]);

test("a topic with a history numbers its messages; `since` replays what came after, then the live ones", async () => {
  const app = createApp({ history: { topics: ["room:*"], size: 5 } });
  const first = received();
  app.subscribe("room:a", first.listener);
  for (const n of [1, 2, 3, 4]) app.publish("room:a", `m${n}`);
  assert.deepEqual(
    first.got.map(([message, position]) => [message, seqOf(position)]),
    [
      ["m1", 1],
      ["m2", 2],
      ["m3", 3],
      ["m4", 4],
    ],
  );
  const epoch = first.got[0]![1]!.split(":")[0];
  assert.ok(first.got.every(([, position]) => position?.startsWith(`${epoch}:`)));

  const back = received();
  const recovery = new Promise<Recovery>((onRecovery) =>
    app.subscribe("room:a", back.listener, { since: first.got[1]![1], onRecovery }),
  );
  app.publish("room:a", "m5"); // arrives while the history is read: held, then sent after the replay
  assert.deepEqual(await recovery, { recovered: true, replayed: 2 });
  app.publish("room:a", "m6");
  assert.deepEqual(
    back.got.map(([message]) => message),
    ["m3", "m4", "m5", "m6"],
  );
  // A topic without a history has no positions, and cannot replay.
  const plain = received();
  app.subscribe("lobby", plain.listener);
  app.publish("lobby", "hi");
  assert.deepEqual(plain.got, [["hi", undefined]]);
  assert.throws(() => app.subscribe("lobby", () => {}, { since: "x:1" }), /keeps no history/);
});

test("a position the history no longer reaches, or that is not one, is a gap, and live messages still flow", async () => {
  const app = createApp({ history: { topics: (topic) => topic === "t", size: 3 } });
  const first = received();
  app.subscribe("t", first.listener);
  for (let n = 1; n <= 10; n++) app.publish("t", `m${n}`);
  const recover = (since: string) => {
    const got = received();
    return new Promise<[Recovery, string[]]>((resolve) =>
      app.subscribe("t", got.listener, {
        since,
        onRecovery: (recovery) => resolve([recovery, got.got.map(([message]) => message)]),
      }),
    );
  };
  assert.deepEqual(await recover(first.got[0]![1]!), [{ recovered: false, replayed: 0, gap: "expired" }, []]);
  assert.deepEqual(await recover("another-epoch:9"), [{ recovered: false, replayed: 0, gap: "expired" }, []]);
  assert.deepEqual(await recover("nonsense"), [{ recovered: false, replayed: 0, gap: "invalid" }, []]);
  const [recovery, replayed] = await recover(first.got[7]![1]!);
  assert.deepEqual([recovery, replayed], [{ recovered: true, replayed: 2 }, ["m9", "m10"]]);
  assert.equal(app.topicStats.missed, 0);
});

/** A store whose history is what the test put in it; appends are not used. */
function store(epoch: string, entries: number[]): HistoryStore & { reads: number } {
  const entry = (seq: number): HistoryEntry => ({ seq, message: `m${seq}`, from: "other", skip: undefined });
  const self = {
    reads: 0,
    append() {},
    read(_topic: string, asked: string | undefined, after: number, limit: number): Promise<HistoryRead> {
      self.reads++;
      const from = asked === epoch ? after : 0;
      return Promise.resolve({
        epoch,
        entries: entries
          .filter((seq) => seq > from)
          .slice(0, limit)
          .map(entry),
      });
    },
  };
  return self;
}

function sequencer(history: HistoryStore) {
  const stats: PubSubStats = { published: 0, delivered: 0, dropped: 0, received: 0, missed: 0 };
  const errors: string[] = [];
  const sequencer = new Sequencer({
    size: 100,
    instance: () => "me",
    stats,
    error: (message) => errors.push(message),
  });
  sequencer.store = history;
  const got: string[] = [];
  sequencer.add("t", {}, (message, position) => got.push(`${String(message)}@${position}`));
  const live = (seq: number, epoch = "e") =>
    sequencer.receive("t", epoch, { seq, message: `m${seq}`, from: "other", skip: undefined });
  return { sequencer, stats, errors, got, live };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

test("an instance delivers a topic in order: a hole is read from the history before what came after it", async () => {
  const history = store("e", [1, 2, 3, 4, 5, 6]);
  const { got, live, stats } = sequencer(history);
  live(1);
  live(2);
  live(5); // 3 and 4 were lost on the way (a subscription not yet back)
  live(6); // arrives while the history is read
  live(2); // a repeat
  await settle();
  assert.deepEqual(got, ["m1@e:1", "m2@e:2", "m3@e:3", "m4@e:4", "m5@e:5", "m6@e:6"]);
  assert.equal(stats.missed, 0);
  assert.equal(history.reads, 1);
});

test("what the history no longer has is counted and reported, once, and delivery goes on", async () => {
  const { got, live, stats, errors } = sequencer(store("e", [7, 8, 9]));
  live(1);
  live(9);
  await settle();
  assert.deepEqual(got, ["m1@e:1", "m7@e:7", "m8@e:8", "m9@e:9"]);
  assert.equal(stats.missed, 5);
  assert.match(errors.join("\n"), /topic "t" missed 5 message/);
});

test("a broker that lost the history (a new epoch) is reported, and the new epoch is delivered from its start", async () => {
  const { got, live, stats, errors } = sequencer(store("f", [1, 2, 3]));
  live(1, "e");
  live(3, "f");
  await settle();
  assert.deepEqual(got, ["m1@e:1", "m1@f:1", "m2@f:2", "m3@f:3"]);
  assert.equal(stats.missed, 1);
  assert.match(errors.join("\n"), /an unknown number of message/);
});

test("after the broker connection comes back, each topic reads what it missed with nothing new arriving", async () => {
  const history = store("e", [1, 2, 3]);
  const { sequencer: lines, got, live } = sequencer(history);
  live(1);
  lines.resync();
  await settle();
  assert.deepEqual(got, ["m1@e:1", "m2@e:2", "m3@e:3"]);
});

test("an unreadable history during a replay is a gap that says so; the live messages held meanwhile follow", async () => {
  const failing: HistoryStore = {
    append() {},
    read: () => Promise.reject(new Error("down")),
  };
  const { sequencer: lines, live } = sequencer(failing);
  const got: string[] = [];
  const recovery = lines.add("t", {}, (message) => got.push(String(message)), "e:3");
  live(4);
  assert.deepEqual(await recovery, { recovered: false, replayed: 0, gap: "unavailable" });
  assert.deepEqual(got, ["m4"]);
});

test("a history a restarting broker cannot read yet is read again: the messages held meanwhile follow the hole, none counted as missed", async () => {
  const history = store("e", [1, 2, 3, 4]);
  let refusals = 2;
  const loading: HistoryStore = {
    append() {},
    read: (...args) =>
      refusals-- > 0 ? Promise.reject(new Error("LOADING Redis is loading")) : history.read(...args),
  };
  const { got, live, stats, errors } = sequencer(loading);
  live(1);
  live(4); // 2 and 3 went out while this instance's subscription was away
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual(got, ["m1@e:1", "m2@e:2", "m3@e:3", "m4@e:4"]);
  assert.equal(stats.missed, 0, errors.join("\n"));
});

test("a message arriving during a read may be newer than what the read saw: a hole before it is read again, not counted", async () => {
  const kept = [1, 2, 3, 4];
  const history = store("e", kept);
  let answer: (() => void) | undefined;
  const slow: HistoryStore = {
    append() {},
    // The read is answered once the test says so, with what the history held when it was made.
    read: (...args) => {
      const read = history.read(...args);
      return new Promise((resolve) => {
        answer = () => resolve(read);
      });
    },
  };
  const { got, live, stats } = sequencer(slow);
  live(1);
  live(2);
  live(4); // 3 went out unseen: the history is read
  kept.push(5, 6); // 5 and 6 are appended after the read ran
  live(6); // 5 went out unseen too; 6 arrives during the read
  answer!(); // the read: 3 and 4
  await settle();
  answer!(); // the second read, from 4: 5 and 6
  await settle();
  assert.deepEqual(got, ["m1@e:1", "m2@e:2", "m3@e:3", "m4@e:4", "m5@e:5", "m6@e:6"]);
  assert.equal(stats.missed, 0);
});

// A store whose reads wait for `answer()`, each with what the history held when it was made.
function gated(initial: { epoch: string; entries: number[] }) {
  const held = { ...initial };
  const answers: (() => void)[] = [];
  const history: HistoryStore = {
    append() {},
    read: (_topic, asked, after, limit) => {
      const from = asked === held.epoch ? after : 0;
      const read = {
        epoch: held.epoch,
        entries: held.entries
          .filter((seq) => seq > from)
          .slice(0, limit)
          .map((seq) => ({ seq, message: `m${seq}`, from: "other", skip: undefined })),
      };
      return new Promise((resolve) => answers.push(() => resolve(read)));
    },
  };
  const answer = async () => {
    answers.shift()?.();
    await settle();
  };
  return { held, history, answer };
}

test("the history restarted (a new epoch): the old epoch's messages in hand go first, a late one is counted, none is repeated", async () => {
  const { held, history, answer } = gated({ epoch: "A", entries: [1, 2, 3] });
  const { got, live, stats } = sequencer(history);
  live(1, "A");
  Object.assign(held, { epoch: "B", entries: [1, 2, 3] }); // the broker lost A; B begins
  live(3, "A"); // 2 unseen: a read, which finds B
  await answer();
  live(4, "A"); // a late one of the old epoch: the read says it is old
  live(4, "B"); // arrives during that read
  await answer();
  assert.deepEqual(got, ["m1@A:1", "m3@A:3", "m1@B:1", "m2@B:2", "m3@B:3", "m4@B:4"]);
  assert.equal(stats.missed, 3, "A:2, what A had after 3 (unknown), the late A:4");
});

test("a message of a new epoch arriving during a read is read for, not counted as missed with what came before it", async () => {
  const { held, history, answer } = gated({ epoch: "A", entries: [1, 2, 3, 4] });
  const { got, live, stats } = sequencer(history);
  live(1, "A");
  live(2, "A");
  live(4, "A"); // 3 unseen: a read (of A)
  Object.assign(held, { epoch: "B", entries: [1, 2, 3] });
  live(3, "B"); // during the read, after the restart
  await answer(); // A 3, 4
  await answer(); // read again: B
  assert.deepEqual(got, ["m1@A:1", "m2@A:2", "m3@A:3", "m4@A:4", "m1@B:1", "m2@B:2", "m3@B:3"]);
  assert.equal(stats.missed, 1, "the restart, once (what A held after 4 is unknown)");
});
