// Topics with a history over NATS JetStream, two apps in this process and a real nats-server: one
// stream per topic, positions without holes, replay with `since`, a history that expired swept (a new
// epoch, and a gap for a position of the old one), and a server without JetStream reported by name.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { createApp, type Recovery } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { freePort, NATS, startBroker, stopBroker, until } from "./brokers.ts";

let server: ChildProcess;
let plain: ChildProcess;
let url: string;
let plainUrl: string;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "portico-jetstream-"));
  const [port, plainPort] = [await freePort(), await freePort()];
  server = await startBroker(
    NATS,
    ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir],
    "Server is ready",
  );
  plain = await startBroker(NATS, ["-a", "127.0.0.1", "-p", String(plainPort)], "Server is ready");
  url = `nats://127.0.0.1:${port}`;
  plainUrl = `nats://127.0.0.1:${plainPort}`;
});
after(async () => {
  await Promise.all([stopBroker(server), stopBroker(plain)]);
  rmSync(dir, { recursive: true, force: true });
});

const listen = () => {
  const got: [string, string][] = [];
  return { got, listener: (message: unknown, position?: string) => got.push([String(message), position!]) };
};
const seqOf = (position: string) => Number(position.split(":").pop());

function pair(ttl = 3600, servers = url) {
  const errors: unknown[] = [];
  const make = () =>
    createApp({
      pubsub: natsPubSub({ servers, onError: (error) => errors.push(error) }),
      history: { topics: ["kept:*"], size: 50, ttl },
      logger: { error: () => {}, info: () => {} },
    });
  return { a: make(), b: make(), errors };
}

test("NATS JetStream: every instance gets a topic's messages numbered without holes, in one order; `since` replays", async () => {
  const { a, b, errors } = pair();
  const topic = `kept:room${Date.now()}`;
  const onA = listen();
  const onB = listen();
  a.subscribe(topic, onA.listener);
  b.subscribe(topic, onB.listener);
  // Each instance's reader is made once its first subscriber came: probe until both hear.
  await until(async () => {
    a.publish(topic, "probe");
    await new Promise((resolve) => setTimeout(resolve, 100));
    return onA.got.length > 0 && onB.got.length > 0;
  }, "both instances to read the topic's stream");
  onA.got.length = 0;
  onB.got.length = 0;
  for (let i = 0; i < 20; i++) (i % 2 ? a : b).publish(topic, `m${i}`);
  await until(() => onA.got.length === 20 && onB.got.length === 20, "20 messages on each instance");
  assert.deepEqual(onA.got, onB.got, "the same order, the same positions, everywhere");
  const seqs = onA.got.map(([, position]) => seqOf(position));
  assert.deepEqual(
    seqs,
    seqs.map((_, i) => seqs[0]! + i),
    "numbered without holes",
  );
  assert.deepEqual(new Set(onA.got.map(([message]) => message)).size, 20);

  const seen = [...onA.got];
  // A subscriber coming back with the position of the 5th message gets the 15 after it, then live ones.
  const back = listen();
  const recovery = await new Promise<Recovery>((onRecovery) =>
    b.subscribe(topic, back.listener, { since: seen[4]![1], onRecovery }),
  );
  assert.deepEqual(recovery, { recovered: true, replayed: 15 });
  a.publish(topic, "after");
  await until(() => back.got.length === 16, "the live message after the replay");
  assert.deepEqual(back.got.slice(0, 15), seen.slice(5));
  assert.equal(back.got[15]![0], "after");
  assert.deepEqual(errors, []);
  await Promise.all([a.close(), b.close()]);
});

test("NATS JetStream: a history that expired and that nobody reads is swept: a new epoch, and a gap for the old one", async () => {
  const { a, b, errors } = pair(1);
  const topic = `kept:short${Date.now()}`;
  const first = listen();
  const stop = a.subscribe(topic, first.listener);
  await until(async () => {
    a.publish(topic, "one");
    await new Promise((resolve) => setTimeout(resolve, 100));
    return first.got.length > 0;
  }, "the reader to be made");
  const old = first.got[0]![1];
  stop();
  // The frames expire after 1 s; the sweep (every ttl) removes the stream once no consumer is left.
  const nc = await connect({ servers: url });
  const jsm = await jetstreamManager(nc);
  const streams = async () => {
    const names: string[] = [];
    for await (const name of jsm.streams.names()) names.push(name);
    return names;
  };
  const name = (await streams()).find((stream) => stream.endsWith(topic.replace(":", "~3a")));
  assert.ok(name, "the topic's stream");
  await until(async () => !(await streams()).includes(name), "the stream to be swept", 20_000);
  await nc.close();
  const next = listen();
  a.subscribe(topic, next.listener);
  await until(async () => {
    a.publish(topic, "two");
    await new Promise((resolve) => setTimeout(resolve, 200));
    return next.got.length > 0;
  }, "a message after the sweep");
  assert.notEqual(next.got[0]![1].split(":")[0], old.split(":")[0], "a new epoch");
  const gap = await new Promise<Recovery>((onRecovery) =>
    a.subscribe(topic, () => {}, { since: old, onRecovery }),
  );
  assert.equal(gap.recovered, false);
  assert.equal(gap.gap, "expired");
  assert.deepEqual(errors, []);
  await Promise.all([a.close(), b.close()]);
});

test("NATS without JetStream: a topic with a history is reported, naming what to turn on; plain topics still cross", async () => {
  const { a, b, errors } = pair(3600, plainUrl);
  const got = listen();
  b.subscribe("lobby", got.listener);
  a.subscribe("kept:x", () => {});
  await until(async () => {
    a.publish("lobby", "hi");
    await new Promise((resolve) => setTimeout(resolve, 100));
    return got.got.length > 0;
  }, "a plain message to cross");
  a.publish("kept:x", "lost");
  await until(() => errors.some((error) => /JetStream/.test(String(error))), "JetStream reported").catch(
    (e) => {
      throw new Error(errors.map((error) => String(error) + String((error as Error).cause)).join("\n"), {
        cause: e,
      });
    },
  );
  assert.ok(
    errors.some((error) => /-js/.test(String(error))),
    String(errors),
  );
  await Promise.all([a.close(), b.close()]);
});
