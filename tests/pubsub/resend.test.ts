// Appends sent in order and applied once (src/pubsub/resend.ts), against a broker that applies an
// append unless it already applied one of the same publisher with a counter as high (as the Redis
// script does), and that may refuse (LOADING) or lose answers (a dropped connection).
import assert from "node:assert/strict";
import { test } from "node:test";
import { OrderedAppends } from "../../src/pubsub/resend.ts";

class Refusal extends Error {}

function broker() {
  const applied: string[] = [];
  let last = 0;
  // What the broker does with the next sends: "refuse", "apply", "lose" (applied, answer lost),
  // or a number of ms to wait before applying.
  const plan: ("refuse" | "apply" | "lose" | number)[] = [];
  let ready = true;
  const appends = new OrderedAppends({
    ready: () => ready,
    final: () => false,
    refused: (error) => error instanceof Refusal,
  });
  const add = (text: string) =>
    appends.add((counter) => async () => {
      const step = plan.shift() ?? "apply";
      if (typeof step === "number") await new Promise((resolve) => setTimeout(resolve, step));
      if (step === "refuse") throw new Refusal("LOADING");
      if (counter > last) {
        last = counter;
        applied.push(text);
      }
      if (step === "lose") throw new Error("connection lost");
    });
  return {
    applied,
    plan,
    add,
    appends,
    setReady: (value: boolean) => {
      ready = value;
    },
  };
}

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

test("a refused append followed by one the broker applied is sent again under a new counter, not skipped as a repeat", async () => {
  const b = broker();
  b.plan.push("refuse", "apply", "apply");
  const results = Promise.all([b.add("one"), b.add("two"), b.add("three")]);
  assert.deepEqual(await results, [true, true, true]);
  assert.deepEqual(b.applied.sort(), ["one", "three", "two"]);
});

test("after a refusal the waiting appends go once the first goes through, in order; nothing stalls behind an append in flight", async () => {
  const b = broker();
  b.plan.push("refuse", 150); // 1 refused, 2 still in flight when 1's retry is due
  const first = [b.add("one"), b.add("two")];
  await settle(5);
  const third = b.add("three"); // made while held
  assert.deepEqual(await Promise.all([...first, third]), [true, true, true]);
  assert.deepEqual(new Set(b.applied), new Set(["one", "two", "three"]));
  assert.equal(b.applied.length, 3);
});

test("an append whose answer was lost is sent again with its counter: applied once", async () => {
  const b = broker();
  b.plan.push("lose");
  const sent = b.add("once");
  await settle();
  b.appends.resume();
  assert.equal(await sent, true);
  assert.deepEqual(b.applied, ["once"]);
});

test("an append in doubt (its answer lost) that is then refused keeps its counter: still applied once", async () => {
  const b = broker();
  b.plan.push("lose", "refuse");
  const sent = b.add("once");
  await settle();
  b.appends.resume(); // the connection is back: refused (loading)
  // The backoff's timer does not hold the process (a closing app does not wait for it): this does.
  const alive = setInterval(() => {}, 50);
  try {
    assert.equal(await sent, true); // sent again after the backoff
  } finally {
    clearInterval(alive);
  }
  assert.deepEqual(b.applied, ["once"]);
});

test("appends made while the connection is away all go when it is back, in order", async () => {
  const b = broker();
  b.setReady(false);
  const sent = [b.add("a"), b.add("b"), b.add("c")];
  await settle();
  assert.deepEqual(b.applied, []);
  b.setReady(true);
  b.appends.resume();
  assert.deepEqual(await Promise.all(sent), [true, true, true]);
  assert.deepEqual(b.applied, ["a", "b", "c"]);
});
