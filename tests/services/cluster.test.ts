// Topics over a Redis Cluster (three real redis-servers in cluster mode, no replicas), sharded pub/sub:
// instances on Node 24, Bun and Deno; rooms spread over every node's slots; a topic with a history
// numbered in its slot; the channels held as shard channels, not broadcast to the whole cluster.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createApp, type Recovery } from "../../src/mod.ts";
import { topicEmitter } from "../../src/pubsub/emitter.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { type Member, openMember } from "../conformance/client.ts";
import type { StartedProcess } from "../runtimes/processes.ts";
import { until } from "./brokers.ts";
import { startInstances } from "./instances.ts";
import { type RedisCluster, startRedisCluster } from "./redis-topologies.ts";

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let cluster: RedisCluster;
const instances: StartedProcess[] = [];
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "portico-cluster-"));
  cluster = await startRedisCluster(dir);
  const env = { REDIS_CLUSTER: cluster.urls.join(",") };
  instances.push(...(await startInstances(env)));
});
after(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("Redis Cluster: rooms on every node's slots reach every member on every instance once; shard channels", async () => {
  const rooms = Array.from({ length: 6 }, (_, i) => `c${Date.now()}-${i}`);
  const members = new Map<string, Member[]>();
  for (const room of rooms)
    members.set(
      room,
      await Promise.all(instances.map((instance) => openMember(`${instance.origin}/room/${room}`))),
    );
  // Each instance subscribes when its first member joins: probe every room until every member hears.
  await until(async () => {
    for (const room of rooms) members.get(room)![0]!.ws.send("probe");
    await pause(100);
    return rooms.every((room) =>
      members
        .get(room)!
        .slice(1)
        .every((member) => member.got.includes("probe")),
    );
  }, "every instance to be subscribed to every room");
  for (const list of members.values()) for (const member of list) member.got.length = 0;
  for (const room of rooms)
    for (const [i, member] of members.get(room)!.entries())
      for (let n = 0; n < 10; n++) member.ws.send(`${i}:${n}`);
  for (const room of rooms)
    await until(
      () => members.get(room)!.every((member) => member.got.length >= 20),
      `every message in room ${room}`,
    );
  await pause(200);
  for (const room of rooms)
    for (const [i, member] of members.get(room)!.entries()) {
      const expected = [0, 1, 2]
        .filter((from) => from !== i)
        .flatMap((from) => Array.from({ length: 10 }, (_, n) => `${from}:${n}`));
      assert.deepEqual(
        [...member.got].sort(),
        expected.sort(),
        `room ${room}, member ${i}: each once, no echo`,
      );
    }
  // The rooms' channels are shard channels (SSUBSCRIBE), spread over more than one node.
  const holders = cluster.urls.map((url) => {
    const port = new URL(url).port;
    const out = spawnSync("/usr/bin/redis-cli", ["-p", port, "pubsub", "shardchannels", "portico:*"], {
      encoding: "utf8",
    });
    return out.stdout.split("\n").filter((line) => rooms.some((room) => line.includes(room)));
  });
  assert.equal(holders.flat().length, rooms.length, JSON.stringify(holders));
  assert.ok(holders.filter((held) => held.length > 0).length > 1, "rooms on more than one node");
  for (const list of members.values()) for (const member of list) member.ws.close();
});

test("Redis Cluster: a topic with a history is numbered in its slot, one order on every app; `since` replays; an emitter appends", async () => {
  const errors: unknown[] = [];
  const make = () =>
    createApp({
      pubsub: redisPubSub({ cluster: cluster.urls, onError: (error) => errors.push(error) }),
      history: { topics: ["kept:*"], size: 100 },
      logger: { error: (message) => errors.push(message), info: () => {} },
    });
  const [a, b] = [make(), make()];
  const topic = `kept:cluster${Date.now()}`;
  const onA: [string, string][] = [];
  const onB: [string, string][] = [];
  a.subscribe(topic, (message, position) => onA.push([String(message), position!]));
  b.subscribe(topic, (message, position) => onB.push([String(message), position!]));
  await until(async () => {
    a.publish(topic, "probe");
    await pause(100);
    return onA.length > 0 && onB.length > 0;
  }, "both apps to hear the topic");
  const emitter = topicEmitter(redisPubSub({ cluster: cluster.urls }), {
    history: { topics: ["kept:*"], size: 100 },
  });
  try {
    // The probes are behind us: an app that subscribed a moment later heard fewer of them, so only what
    // follows is compared (after the last probe in flight has landed).
    await pause(300);
    const [fromA, fromB] = [onA.length, onB.length];
    for (let i = 0; i < 10; i++) {
      a.publish(topic, `a${i}`);
      b.publish(topic, `b${i}`);
      assert.equal(await emitter.publish(topic, `e${i}`), true);
    }
    await until(
      () => onA.length - fromA >= 30 && onB.length - fromB >= 30,
      `every message on both apps (${onA.length - fromA} and ${onB.length - fromB} of 30)`,
    );
    await pause(200);
    const [gotA, gotB] = [onA.slice(fromA), onB.slice(fromB)];
    assert.equal(gotA.length, 30);
    assert.deepEqual(gotA, gotB, "the same order and positions");
    const seqs = gotA.map(([, position]) => Number(position.split(":").pop()));
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => seqs[0]! + i),
      "numbered without holes",
    );
    const back: string[] = [];
    const recovery = await new Promise<Recovery>((onRecovery) =>
      b.subscribe(topic, (message) => back.push(String(message)), { since: gotA[9]![1], onRecovery }),
    );
    assert.deepEqual(recovery, { recovered: true, replayed: 20 });
    assert.deepEqual(
      back,
      gotA.slice(10).map(([message]) => message),
    );
    assert.deepEqual(errors, []);
  } finally {
    await Promise.all([a.close(), b.close(), emitter.close()]);
  }
});

test("Redis Cluster: a node restarts; instances report it, then every room crosses again, one first joined meanwhile too", async () => {
  const rooms = Array.from({ length: 6 }, (_, i) => `r${Date.now()}-${i}`);
  const join = (list: string[]) =>
    Promise.all(
      list.map(
        async (room) =>
          [
            room,
            await Promise.all(instances.map((instance) => openMember(`${instance.origin}/room/${room}`))),
          ] as const,
      ),
    );
  const members = new Map(await join(rooms));
  const reported: boolean[] = [];
  const watching = setInterval(async () => {
    for (const instance of instances)
      reported.push((await (await fetch(`${instance.origin}/health`)).json()).connected);
  }, 100);
  const restarting = cluster.restart(0, 2500);
  await pause(1000);
  // A room whose first members join while a node is away.
  const late = `late${Date.now()}`;
  for (const [room, list] of await join([late])) members.set(room, list);
  await restarting;
  clearInterval(watching);
  assert.ok(reported.includes(false), "the outage is reported by the health check");
  for (const [room, list] of members)
    await until(
      async () => {
        for (const member of list) member.got.length = 0;
        list[0]!.ws.send("after");
        await pause(150);
        return list.slice(1).every((member) => member.got.includes("after"));
      },
      `room ${room} to cross again`,
      15_000,
    );
  for (const instance of instances)
    assert.equal((await (await fetch(`${instance.origin}/health`)).json()).connected, true);
  for (const list of members.values()) for (const member of list) member.ws.close();
});

test("redisPubSub needs one of url and cluster", () => {
  assert.throws(() => redisPubSub({} as never), /one of url .* cluster/);
  assert.throws(() => redisPubSub({ url: "redis://x", cluster: ["redis://y"] }), /one of url/);
  assert.throws(() => redisPubSub({ cluster: [] }), /at least one node/);
});
