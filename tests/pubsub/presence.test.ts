// Presence between instances, over a bus written here: joins and leaves heard everywhere, a late
// instance catching up, a count that disagrees asked for again, and a silent instance's members leaving
// after three heartbeats.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp } from "../../src/mod.ts";
import { Presence, type PresenceEvent } from "../../src/pubsub/presence.ts";

/** Instances on one bus: what one sends, the others that subscribed receive (unless it is cut off). */
function bus() {
  const nodes = new Map<string, { presence: Presence; topics: Set<string>; cut: boolean }>();
  // `subscribeDelay`: the broker confirms a subscription that much later (it hears nothing before).
  const add = (name: string, heartbeat = 20, subscribeDelay = 0) => {
    const node = {
      topics: new Set<string>(),
      cut: false,
      presence: new Presence(
        {
          shared: true,
          instance: () => name,
          send: (topic, message) => {
            if (node.cut) return;
            for (const [other, peer] of nodes) {
              if (other !== name && !peer.cut && peer.topics.has(topic))
                peer.presence.receive(topic, name, message);
            }
          },
          subscribe: (topic) => {
            if (subscribeDelay === 0) {
              node.topics.add(topic);
              return;
            }
            return pause(subscribeDelay).then(() => {
              node.topics.add(topic);
            });
          },
          unsubscribe: (topic) => node.topics.delete(topic),
          error: (message) => assert.fail(message),
        },
        { heartbeat },
      ),
    };
    nodes.set(name, node);
    return node;
  };
  return { add };
}

const names = (members: readonly { data: unknown }[]) =>
  members.map((member) => (member.data as { user: string }).user).sort();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a member joining on one instance is listed and heard on the others; its leave too", () => {
  const { add } = bus();
  const a = add("a");
  const b = add("b");
  const heard: string[] = [];
  const stop = b.presence.listen("room", (event: PresenceEvent) =>
    heard.push(`${event.type} ${(event.data as { user: string }).user}`),
  );
  const ann = {};
  a.presence.join("room", ann, { user: "ann" });
  b.presence.join("room", {}, { user: "bob" });
  assert.deepEqual(names(a.presence.state("room").members), ["ann", "bob"]);
  assert.deepEqual(names(b.presence.state("room").members), ["ann", "bob"]);
  a.presence.leave("room", ann);
  assert.deepEqual(b.presence.state("room").count, 1);
  assert.deepEqual(heard, ["join ann", "join bob", "leave ann"]);
  // Member ids are unique across instances.
  const ids = b.presence.state("room").members.map((member) => member.id);
  assert.equal(new Set(ids).size, ids.length);
  stop();
  for (const node of [a, b]) node.presence.close();
});

test("an instance whose subscription is confirmed late still gets everyone's state (it asks once it hears)", async () => {
  const { add } = bus();
  const a = add("a", 1000);
  a.presence.join("room", {}, { user: "ann" });
  const b = add("b", 1000, 40);
  assert.deepEqual(names((await b.presence.ask("room")).members), ["ann"]);
  for (const node of [a, b]) node.presence.close();
});

test("an instance that starts following late gets everyone's state; a count that disagrees is synced", async () => {
  const { add } = bus();
  const a = add("a");
  const b = add("b");
  a.presence.join("room", {}, { user: "ann" });
  b.presence.join("room", {}, { user: "bob" });
  const c = add("c");
  assert.deepEqual(names((await c.presence.ask("room")).members), ["ann", "bob"]);
  // A join that b did not hear (its link was down): the next heartbeat's count disagrees, b asks again.
  b.cut = true;
  a.presence.join("room", {}, { user: "cid" });
  b.cut = false;
  assert.deepEqual(names(b.presence.state("room").members), ["ann", "bob"]);
  await pause(60);
  assert.deepEqual(names(b.presence.state("room").members), ["ann", "bob", "cid"]);
  for (const node of [a, b, c]) node.presence.close();
});

test("an instance that goes silent (it died) has its members leave after three heartbeats", async () => {
  const { add } = bus();
  const a = add("a");
  const b = add("b");
  const left: string[] = [];
  a.presence.listen("room", (event) => {
    if (event.type === "leave") left.push((event.data as { user: string }).user);
  });
  a.presence.join("room", {}, { user: "ann" });
  b.presence.join("room", {}, { user: "bob" });
  b.presence.join("room", {}, { user: "bea" });
  assert.equal(a.presence.state("room").count, 3);
  await pause(30);
  assert.equal(a.presence.state("room").count, 3, "alive while it beats");
  b.cut = true;
  b.presence.close();
  await pause(120);
  assert.deepEqual(names(a.presence.state("room").members), ["ann"]);
  assert.deepEqual(left.sort(), ["bea", "bob"]);
  a.presence.close();
});

test("presence data is JSON, copied at join; bad options say so", () => {
  const { add } = bus();
  const a = add("a");
  const data = { user: "ann", tags: ["x"] };
  a.presence.join("room", {}, data);
  data.tags.push("changed later");
  assert.deepEqual(a.presence.state("room").members[0]!.data, { user: "ann", tags: ["x"] });
  assert.throws(() => a.presence.join("room", {}, { n: 1n }), /BigInt/);
  assert.throws(() => createApp({ presence: { heartbeat: 0 } }), /presence.heartbeat must be at least 10/);
  a.presence.close();
});
