// Ordered appends at their edges (found by the mutation run, bench/MUTATION.md), with every send answered
// by the test: how many times an append is tried and how long it waits between tries, what follows an
// append that failed for good, nothing sent while the connection is away, and a renumbering that sends
// each append once.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OrderedAppends } from "../../src/pubsub/resend.ts";

class Refusal extends Error {}
class Final extends Error {}

/** A channel whose every send waits for the test; `sends` lists each as `text#counter`. */
function channel() {
  let ready = true;
  const sends: string[] = [];
  const answers: { ok: () => void; fail: (error: Error) => void }[] = [];
  const appends = new OrderedAppends({
    ready: () => ready,
    final: (error) => error instanceof Final,
    refused: (error) => error instanceof Refusal,
  });
  const add = (text: string) =>
    appends.add((counter) => () => {
      sends.push(`${text}#${counter}`);
      return new Promise<void>((ok, fail) => answers.push({ ok, fail }));
    });
  const answer = async (how: "ok" | Error) => {
    const next = answers.shift();
    assert.ok(next, "a send to answer");
    if (how === "ok") next.ok();
    else next.fail(how);
    await tick();
  };
  return { appends, add, sends, answer, answers, setReady: (value: boolean) => (ready = value) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

// The waits the appends ask for, with the timers not run: the test resumes by hand.
function capturedWaits(): { waits: number[]; restore: () => void } {
  const waits: number[] = [];
  const original = globalThis.setTimeout;
  globalThis.setTimeout = ((_fn: () => void, ms?: number) => {
    waits.push(ms ?? 0);
    return { unref() {} };
  }) as unknown as typeof setTimeout;
  return { waits, restore: () => (globalThis.setTimeout = original) };
}

describe("ordered appends", () => {
  test("an append is tried 8 times, waiting 100 ms doubled each time up to 2 s, then fails", async () => {
    const c = channel();
    const timers = capturedWaits();
    try {
      const result = c.add("a").then(
        () => "sent",
        (error: Error) => error.message,
      );
      for (let attempt = 1; attempt <= 8; attempt++) {
        await c.answer(new Refusal(`LOADING ${attempt}`));
        if (attempt < 8) c.appends.resume();
      }
      assert.equal(await result, "LOADING 8");
      assert.deepEqual(timers.waits, [100, 200, 400, 800, 1600, 2000, 2000]);
      assert.equal(c.sends.length, 8);
    } finally {
      timers.restore();
    }
  });

  test("an append that fails for good releases the ones held behind it", async () => {
    const c = channel();
    const timers = capturedWaits();
    try {
      const first = c.add("a").catch((error: Error) => error.message);
      await c.answer(new Error("connection lost")); // in doubt: held, sent again on resume
      const second = c.add("b"); // waits behind it
      c.appends.resume();
      await c.answer(new Final("ERR wrong type"));
      assert.equal(await first, "ERR wrong type");
      await c.answer("ok");
      assert.equal(await second, true);
      assert.deepEqual(c.sends, ["a#1", "a#1", "b#2"]);
    } finally {
      timers.restore();
    }
  });

  test("nothing is sent while the connection is away, even when an append in flight is answered", async () => {
    const c = channel();
    const first = c.add("a");
    c.setReady(false);
    const second = c.add("b");
    await c.answer("ok");
    assert.equal(await first, true);
    assert.deepEqual(c.sends, ["a#1"], "b waits for the connection");
    c.setReady(true);
    c.appends.resume();
    await c.answer("ok");
    assert.equal(await second, true);
    assert.deepEqual(c.sends, ["a#1", "b#2"]);
  });

  test("appends renumbered after a refusal are each sent once, in order", async () => {
    const c = channel();
    const timers = capturedWaits();
    try {
      c.setReady(false);
      const all = [c.add("a"), c.add("b"), c.add("c")];
      c.setReady(true);
      c.appends.resume(); // a goes alone
      await c.answer(new Refusal("LOADING")); // not applied: a, b and c take new counters
      c.appends.resume();
      await c.answer("ok"); // a; then b and c follow
      await c.answer("ok");
      await c.answer("ok");
      assert.deepEqual(await Promise.all(all), [true, true, true]);
      assert.deepEqual(c.sends, ["a#1", "a#4", "b#5", "c#6"]);
      assert.equal(c.answers.length, 0, "nothing sent twice");
    } finally {
      timers.restore();
    }
  });
});
