// The backplane drivers against a real broker, below the hub: what the hub asks of them.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, test } from "node:test";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { BROKERS, freePort, stopBroker, until } from "./brokers.ts";

const nats = BROKERS.find((broker) => broker.name === "NATS")!;
let broker: ChildProcess;
let url: string;
before(async () => {
  const port = await freePort();
  broker = await nats.start(port);
  url = `nats://127.0.0.1:${port}`;
});
after(() => stopBroker(broker));

test("NATS: an unsubscribe made before the connection is up wins over the subscribe waiting for it", async () => {
  const received: string[] = [];
  const listener = natsPubSub({ servers: url });
  listener.start(
    (topic) => received.push(topic),
    (error) => assert.fail(String(error)),
  );
  // Both before the connection is made: 0.2 subscribed "gone" once connected, and never left it.
  const joining = listener.subscribe("gone");
  listener.unsubscribe("gone");
  await joining;
  await listener.subscribe("kept");
  const sender = natsPubSub({ servers: url });
  sender.start(
    () => {},
    (error) => assert.fail(String(error)),
  );
  const frame = new Uint8Array([1]);
  // One connection's messages arrive in order: once "kept" is in, "gone" would have been too.
  await until(async () => {
    await sender.publish("gone", frame);
    await sender.publish("kept", frame);
    return received.includes("kept");
  }, "the message on the kept topic");
  assert.deepEqual(new Set(received), new Set(["kept"]));
  await Promise.all([listener.close(), sender.close()]);
});
