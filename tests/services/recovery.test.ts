// Topics with a history across instances, through the faults that lose messages without one: an
// instance killed with SIGKILL (its clients come back on another instance with the last position they
// saw) and a broker restart (Redis with its persistence on, NATS JetStream on disk). Real redis-server and
// nats-server; instances on Node 24, Bun and Deno.
// Every message is numbered, and every client must end with each number once, in order: zero lost.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import WebSocket from "ws";
import { topicEmitter } from "../../src/pubsub/emitter.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { nodeBin } from "../runtimes/targets.ts";
import { freePort, NATS, REDIS, startBroker, stopBroker, until } from "./brokers.ts";

const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const deno = join(root, "node_modules", ".bin", "deno");
const entry = "tests/services/instance.ts";
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const get = async <T>(instance: StartedProcess, path: string): Promise<T> =>
  (await (await fetch(`${instance.origin}${path}`)).json()) as T;

interface Recovery {
  recovered: boolean;
  replayed: number;
  gap?: string;
}

/**
 * A client of a `kept:` room that keeps the last position it received and, when its connection drops,
 * comes back on `fallback` with it, as a browser client would.
 */
class KeptClient {
  /** The numbers received, by tag (`k12` is number 12 of tag `k`), and every message in order. */
  readonly seen: Record<string, number[]> = {};
  readonly all: string[] = [];
  readonly recoveries: Recovery[] = [];
  last: string | undefined;
  #ws: WebSocket | undefined;
  #closing = false;

  readonly room: string;
  readonly fallback: () => string;

  constructor(room: string, fallback: () => string) {
    this.room = room;
    this.fallback = fallback;
  }

  open(origin: string): Promise<void> {
    const since = this.last === undefined ? "" : `?since=${encodeURIComponent(this.last)}`;
    const ws = new WebSocket(`${origin.replace(/^http/, "ws")}/kept/${this.room}${since}`);
    this.#ws = ws;
    return new Promise((resolve, reject) => {
      ws.on("message", (data: Buffer) => {
        const text = data.toString("utf8");
        if (text === "ready") return resolve();
        const parsed = JSON.parse(text) as { p?: string; m?: string; recovery?: Recovery };
        if (parsed.recovery !== undefined) {
          this.recoveries.push(parsed.recovery);
          return;
        }
        this.last = parsed.p;
        const match = /^([a-z]+)(\d+) /.exec(parsed.m ?? "");
        if (match && match[1] !== "probe") {
          this.seen[match[1]!] = [...(this.seen[match[1]!] ?? []), Number(match[2])];
          this.all.push(`${match[1]}${match[2]}`);
        }
      });
      ws.on("error", reject);
      ws.on("close", () => {
        if (!this.#closing && this.#ws === ws) void this.open(this.fallback());
      });
    });
  }

  close(): void {
    this.#closing = true;
    this.#ws?.terminate();
  }

  /** Lost, duplicated and reordered numbers of `tag` among `0…n-1`. */
  tally(n: number, tag = "k"): { lost: number; duplicated: number; reordered: number } {
    const seen = this.seen[tag] ?? [];
    const distinct = new Set(seen.filter((number) => number < n));
    let reordered = 0;
    for (let i = 1; i < seen.length; i++) if (seen[i]! < seen[i - 1]!) reordered++;
    return { lost: n - distinct.size, duplicated: seen.length - new Set(seen).size, reordered };
  }
}

/** A broker that keeps what it stores through a restart: Redis with its append-only file, NATS JetStream on disk. */
interface DurableBroker {
  readonly name: string;
  /** `restart`: the broker comes back as after a crash of a loaded server, slow to read what it kept. */
  start(port: number, dir: string, restart?: boolean): Promise<ChildProcess>;
  env(port: number): Record<string, string>;
}

const DURABLE: readonly DurableBroker[] = [
  {
    name: "Redis",
    // On restart, each command of the append-only file takes 300 µs to load (a few seconds in all): the
    // instances reconnect while Redis answers LOADING to scripts, which they must wait out, not count
    // as lost (a CI run once lost 20 messages that way).
    start: (port, dir, restart) =>
      startBroker(
        REDIS,
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          "yes",
        ].concat(restart ? ["--key-load-delay", "300"] : []),
        "Ready to accept connections",
      ),
    env: (port) => ({ REDIS_URL: `redis://127.0.0.1:${port}` }),
  },
  {
    name: "NATS",
    start: (port, dir) =>
      startBroker(NATS, ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], "Server is ready"),
    env: (port) => ({ NATS_URL: `nats://127.0.0.1:${port}` }),
  },
];

for (const broker of DURABLE) {
  describe(`topics with a history over ${broker.name}: instance SIGKILL and broker restart lose nothing`, () => {
    let port: number;
    let dir: string;
    let server: ChildProcess;
    let env: Record<string, string>;
    const instances: Record<"node" | "bun" | "deno", StartedProcess> = {} as never;
    const clients: KeptClient[] = [];
    const startServer = () => broker.start(port, dir);

    before(async () => {
      port = await freePort();
      dir = mkdtempSync(join(tmpdir(), "portico-broker-"));
      server = await startServer();
      env = broker.env(port);
      [instances.node, instances.bun, instances.deno] = await Promise.all([
        startProcess(nodeBin(24), [entry], env),
        startProcess(bun, ["run", entry], env),
        startProcess(deno, ["run", "--allow-net", "--allow-env", "--allow-read", entry], env),
      ]);
    });
    after(async () => {
      for (const client of clients) client.close();
      await Promise.all(Object.values(instances).map((instance) => instance.stop()));
      if (server) await stopBroker(server);
      rmSync(dir, { recursive: true, force: true });
    });

    /** Publishes probes from `publisher` until every client has one (their instances are subscribed). */
    async function subscribed(publisher: StartedProcess, room: string, everyone: KeptClient[], what: string) {
      let probe = 0;
      await until(async () => {
        await burst(publisher, room, probe++, 1, "probe");
        await pause(100);
        return everyone.every((client) => client.last !== undefined);
      }, what);
    }

    /** Publishes `k<from>`…`k<from+n-1>` from `instance`. */
    const burst = (instance: StartedProcess, room: string, from: number, n: number, tag = "k") =>
      fetch(`${instance.origin}/burst/${room}?topic=kept&tag=${tag}&n=${n}&from=${from}`, { method: "POST" });

    /** Publishes `n` numbered messages from `publisher`, `batch` at a time, while `during` runs. */
    async function publish(
      publisher: StartedProcess,
      room: string,
      n: number,
      batch: number,
      during: (sent: number) => Promise<void> | void,
    ) {
      for (let from = 0; from < n; from += batch) {
        await burst(publisher, room, from, batch);
        await during(from + batch);
        await pause(20);
      }
    }

    test("an emitter given the apps' history appends to it: numbered, one order everywhere; one without is counted as missed", async () => {
      const room = `emit${Date.now()}`;
      const all = [instances.node, instances.bun, instances.deno];
      const members = all.map((instance) => new KeptClient(room, () => instance.origin));
      clients.push(...members);
      for (const [i, client] of members.entries()) await client.open(all[i]!.origin);
      await subscribed(instances.node, room, members, "the instances to be subscribed");
      const url = Object.values(env)[0]!;
      const driver = () => (broker.name === "Redis" ? redisPubSub({ url }) : natsPubSub({ servers: url }));
      const emitter = topicEmitter(driver(), { history: { topics: ["kept:*"], size: 10_000 } });
      for (let i = 0; i < 50; i++)
        assert.equal(await emitter.publish(`kept:${room}`, `e${i} from a job`), true);
      await until(
        () => members.every((client) => client.tally(50, "e").lost === 0),
        "the emitter's messages",
      );
      for (const client of members) {
        assert.deepEqual(client.tally(50, "e"), { lost: 0, duplicated: 0, reordered: 0 });
        assert.deepEqual(client.all, members[0]!.all);
      }
      // An emitter not told of the history: its message has no position; every instance counts it.
      const missed = async () => {
        const stats = await Promise.all(all.map((instance) => get<{ missed: number }>(instance, "/stats")));
        return stats.map((stat) => stat.missed);
      };
      const before = await missed();
      const unaware = topicEmitter(driver(), { onError: () => {} });
      assert.equal(await unaware.publish(`kept:${room}`, "x1 without a position"), true);
      await until(
        async () => (await missed()).every((count, i) => count === before[i]! + 1),
        "each instance to count it as missed",
      );
      assert.ok(members.every((client) => client.seen.x === undefined));
      await Promise.all([emitter.close(), unaware.close()]);
    });

    test("an instance killed with SIGKILL: its clients come back on another instance and miss nothing", async () => {
      const victim = await startProcess(nodeBin(24), [entry], env);
      const room = `kill${Date.now()}`;
      const fallbacks = [instances.bun.origin, instances.deno.origin];
      const onVictim = Array.from({ length: 6 }, (_, i) => new KeptClient(room, () => fallbacks[i % 2]!));
      clients.push(...onVictim);
      for (const client of onVictim) await client.open(victim.origin);
      // The victim's subscription is made once its first client joined: wait until a message crosses.
      await subscribed(instances.node, room, onVictim, "the victim to be subscribed");
      const n = 600;
      let killed = false;
      await publish(instances.node, room, n, 20, async (sent) => {
        if (killed || sent < n / 3) return;
        killed = true;
        process.kill(victim.pid, "SIGKILL");
        await victim.exited;
      });
      await until(
        () => onVictim.every((client) => client.tally(n).lost === 0),
        "every client to have every message",
        20_000,
      );
      for (const client of onVictim) {
        assert.deepEqual(client.tally(n), { lost: 0, duplicated: 0, reordered: 0 });
        // Joined once without `since`, then once with it, on the other instance.
        assert.equal(client.recoveries.length, 2);
        assert.equal(client.recoveries[1]!.recovered, true, JSON.stringify(client.recoveries));
      }
      // What they missed while away was replayed, not only what came after.
      assert.ok(onVictim.some((client) => client.recoveries[1]!.replayed > 0));
    });

    test(`a ${broker.name} restart: instances wait for it, then catch up from the history; nothing lost, every client in order`, async () => {
      const room = `restart${Date.now()}`;
      const missedBefore = await Promise.all(
        Object.values(instances).map(
          async (instance) => (await get<{ missed: number }>(instance, "/stats")).missed,
        ),
      );
      const members = [
        ...Array.from({ length: 3 }, () => new KeptClient(room, () => instances.node.origin)),
        ...Array.from({ length: 3 }, () => new KeptClient(room, () => instances.deno.origin)),
      ];
      clients.push(...members);
      for (const [i, client] of members.entries())
        await client.open(i < 3 ? instances.node.origin : instances.deno.origin);
      await subscribed(instances.bun, room, members, "the instances to be subscribed");
      // 600 messages in batches, and 20 more from each of two instances while the broker is down.
      const n = 600;
      let restarted = false;
      await publish(instances.bun, room, n, 20, async (sent) => {
        if (restarted || sent < n / 3) return;
        restarted = true;
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGTERM");
        await exited;
        // Publishes made meanwhile wait for the broker (up to the publish timeout), in order.
        await burst(instances.bun, room, 0, 20, "b");
        await burst(instances.node, room, 0, 20, "o");
        await pause(500);
        server = await broker.start(port, dir, true);
      });
      await until(
        () =>
          members.every(
            (client) => client.tally(n).lost + client.tally(20, "b").lost + client.tally(20, "o").lost === 0,
          ),
        "every client to have every message",
        20_000,
      ).catch(async (error: unknown) => {
        const stats = await Promise.all(Object.values(instances).map((instance) => get(instance, "/stats")));
        const missing = members.map((client) => [
          client.tally(n),
          client.tally(20, "b"),
          client.tally(20, "o"),
        ]);
        throw new Error(`${JSON.stringify({ missing, stats })}`, { cause: error });
      });
      // Bun's and Node's publishes made during the outage went out in either order, but the same on every
      // client: the history's.
      for (const client of members) {
        assert.deepEqual(client.tally(n), { lost: 0, duplicated: 0, reordered: 0 });
        assert.deepEqual(client.tally(20, "b"), { lost: 0, duplicated: 0, reordered: 0 });
        assert.deepEqual(client.tally(20, "o"), { lost: 0, duplicated: 0, reordered: 0 });
        assert.deepEqual(client.all, members[0]!.all);
      }
      for (const [i, instance] of Object.values(instances).entries()) {
        const stats = await get<{ dropped: number; missed: number }>(instance, "/stats");
        assert.equal(stats.missed, missedBefore[i], "no instance missed what the history had");
      }
      assert.equal((await get<{ dropped: number }>(instances.bun, "/stats")).dropped, 0);
    });
  });
}
