// What another instance's control command may be: anything else on the control topic (another
// program's publish, a newer frame) is refused before a socket is touched.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp } from "../../src/mod.ts";
import { readCommand, Tags } from "../../src/pubsub/control.ts";

test("a command from another instance is read only when every field is what it must be", () => {
  assert.deepEqual(readCommand('{"op":"disconnect","tag":"user:1","code":4001,"reason":"bye"}'), {
    op: "disconnect",
    tag: "user:1",
    code: 4001,
    reason: "bye",
  });
  assert.deepEqual(readCommand('{"op":"join","tag":"user:1","topic":"room:a"}'), {
    op: "join",
    tag: "user:1",
    topic: "room:a",
  });
  for (const refused of [
    '{"op":"disconnect","tag":"user:1","code":1006,"reason":""}', // a code only the protocol sends
    '{"op":"disconnect","tag":"user:1","code":"4001","reason":""}',
    '{"op":"join","tag":"user:1"}',
    '{"op":"explode","tag":"user:1"}',
    '{"op":"leave","tag":7,"topic":"room:a"}',
    "not json",
    new Uint8Array([1]),
  ]) {
    assert.equal(readCommand(refused), undefined, String(refused));
  }
});

test("tags: a command reaches exactly the sockets with the tag; a closed socket's tags are gone", () => {
  const tags = new Tags();
  const calls: string[] = [];
  const socket = (name: string) => ({
    close: (code: number) => calls.push(`${name} close ${code}`),
    subscribe: (topic: string) => calls.push(`${name} join ${topic}`),
    unsubscribe: (topic: string) => calls.push(`${name} leave ${topic}`),
  });
  const [a1, a2, b] = [socket("a1"), socket("a2"), socket("b")];
  tags.add(a1, "user:a");
  tags.add(a2, "user:a");
  tags.add(a2, "user:a");
  tags.add(b, "user:b");
  tags.apply({ op: "join", tag: "user:a", topic: "t" });
  tags.drop(a1);
  tags.apply({ op: "disconnect", tag: "user:a", code: 4001, reason: "" });
  assert.deepEqual(calls, ["a1 join t", "a2 join t", "a2 close 4001"]);
  assert.deepEqual(tags.of(a2), ["user:a"]);
  assert.throws(() => tags.add(b, ""), /A tag is a string/);
});

test("app.disconnect refuses a close code the protocol reserves before sending anything", () => {
  const app = createApp();
  assert.throws(() => app.disconnect({ tag: "user:1" }, 1006), /Invalid websocket close code 1006/);
  assert.throws(() => app.join({ tag: "bad\n" }, "room"), /A tag is a string/);
  assert.throws(() => app.join({ tag: "user:1" }, ""), /A topic is a string/);
});
