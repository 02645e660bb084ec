// The backplane through faults, over a real redis-server and a real nats-server, with instances on
// Node 24, Bun and Deno: an outage that a topic's first subscriber joins during, an event loop kept
// busy past node-redis's old 5 s timeout, a broker that hangs (stopped with SIGSTOP: TCP up, no
// answers), and a shutdown that must release the process. Every message is numbered: each test counts
// what was lost, duplicated or reordered, and every loss must be counted as dropped and reported.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Member, openMember } from "../conformance/client.ts";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { nodeBin } from "../runtimes/targets.ts";
import { BROKERS, freePort, stopBroker, until } from "./brokers.ts";

const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const deno = join(root, "node_modules", ".bin", "deno");
const entry = "tests/services/instance.ts";
const MAX_QUEUED = 200;
const PUBLISH_TIMEOUT = 2000;
const PRESENCE_HEARTBEAT = 200;
let presenceEnv: Record<string, string> = {};

interface Stats {
  published: number;
  dropped: number;
  received: number;
  brokerErrors: number;
}
interface Health {
  connected: boolean;
  since: number;
  lastError?: string;
  queued: number;
}

const get = async <T>(instance: StartedProcess, path: string): Promise<T> =>
  (await (await fetch(`${instance.origin}${path}`)).json()) as T;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What a member heard of the numbered messages `prefix0…prefix{n-1}`: lost, duplicated, reordered. */
function tally(
  member: Member,
  prefix: string,
  n: number,
): { lost: number; duplicated: number; reordered: number } {
  const seen = member.got
    .filter((x): x is string => typeof x === "string" && x.startsWith(prefix))
    .map((x) => Number(x.slice(prefix.length).split(" ")[0]));
  const distinct = new Set(seen);
  let reordered = 0;
  for (let i = 1; i < seen.length; i++) if (seen[i]! < seen[i - 1]!) reordered++;
  return { lost: n - distinct.size, duplicated: seen.length - distinct.size, reordered };
}

/**
 * Waits until a probe sent by `from` reaches `to` (the backplane subscription is made and working),
 * then forgets what `to` heard, unless `keep`.
 */
async function crossing(from: Member, to: Member, what: string, ms = 20_000, keep = false): Promise<void> {
  await until(
    async () => {
      from.ws.send("probe");
      await pause(150);
      return to.got.includes("probe");
    },
    what,
    ms,
  );
  if (!keep) to.got.length = 0;
}

for (const broker of BROKERS)
  describe(`backplane faults over ${broker.name}, instances on Node 24, Bun and Deno`, () => {
    let port: number;
    let server: ChildProcess;
    const instances: Record<"node" | "bun" | "deno", StartedProcess> = {} as never;
    const members: Member[] = [];
    const join_ = async (instance: StartedProcess, room: string): Promise<Member> => {
      const member = await openMember(`${instance.origin}/room/${room}`);
      members.push(member);
      return member;
    };
    before(async () => {
      port = await freePort();
      server = await broker.start(port);
      const env = {
        ...broker.env(port),
        MAX_QUEUED: String(MAX_QUEUED),
        PUBLISH_TIMEOUT: String(PUBLISH_TIMEOUT),
        PRESENCE_HEARTBEAT: String(PRESENCE_HEARTBEAT),
      };
      presenceEnv = env;
      [instances.node, instances.bun, instances.deno] = await Promise.all([
        startProcess(nodeBin(24), [entry], env),
        startProcess(bun, ["run", entry], env),
        startProcess(deno, ["run", "--allow-net", "--allow-env", "--allow-read", entry], env),
      ]);
    });
    after(async () => {
      for (const member of members) member.ws.terminate();
      await Promise.all(Object.values(instances).map((instance) => instance.stop()));
      if (server) {
        server.kill("SIGCONT");
        await stopBroker(server);
      }
    });

    test("presence across instances: members on each listed everywhere; an instance killed with SIGKILL, its members leave", async () => {
      const room = `present${Date.now()}`;
      const victim = await startProcess(nodeBin(24), [entry], presenceEnv);
      const present = async (instance: StartedProcess, user: string) => {
        const member = await openMember(`${instance.origin}/present/${room}?user=${user}`);
        members.push(member);
        return member;
      };
      const users = async (instance: StartedProcess) =>
        (await get<{ members: { data: { user: string } }[] }>(instance, `/presence/${room}`)).members
          .map((member) => member.data.user)
          .sort();
      const ann = await present(instances.node, "ann");
      await present(instances.bun, "bob");
      await present(victim, "cid");
      for (const instance of [instances.node, instances.bun, instances.deno]) {
        await until(async () => (await users(instance)).join() === "ann,bob,cid", "everyone to be listed");
      }
      // A member that leaves is gone everywhere at once; an instance that dies, after three heartbeats.
      ann.ws.close();
      process.kill(victim.pid, "SIGKILL");
      await victim.exited;
      for (const instance of [instances.bun, instances.deno]) {
        await until(
          async () => (await users(instance)).join() === "bob",
          "the dead instance's member to leave",
        );
      }
    });

    test("a topic whose first subscribers join during an outage gets its subscription when the broker is back", async () => {
      await stopBroker(server);
      for (const instance of Object.values(instances)) {
        await until(async () => !(await get<Health>(instance, "/health")).connected, "the outage to be seen");
      }
      const room = `outage${Date.now()}`;
      // The first local subscriber of this room, on every instance, arrives while the broker is down.
      const onNode = await join_(instances.node, room);
      const onBun = await join_(instances.bun, room);
      const onDeno = await join_(instances.deno, room);
      server = await broker.start(port);
      for (const instance of Object.values(instances)) {
        await until(
          async () => (await get<Health>(instance, "/health")).connected,
          "the reconnection",
          20_000,
        );
      }
      await crossing(onNode, onBun, "Node's messages to reach Bun");
      await crossing(onBun, onDeno, "Bun's messages to reach Deno");
      onNode.got.length = 0;
      for (let i = 0; i < 100; i++) onDeno.ws.send(`d${i}`);
      await until(
        () => tally(onNode, "d", 100).lost === 0 && tally(onBun, "d", 100).lost === 0,
        "every message to cross",
      );
      for (const member of [onNode, onBun]) {
        assert.deepEqual(tally(member, "d", 100), { lost: 0, duplicated: 0, reordered: 0 });
      }
    });

    test("an event loop kept busy for 6 s (3× the publish timeout) after a burst loses nothing", async () => {
      const room = `busy${Date.now()}`;
      const onBun = await join_(instances.bun, room);
      const onNode = await join_(instances.node, room);
      await crossing(onNode, onBun, "the room's subscription");
      const before = await get<Stats>(instances.node, "/stats");
      // Node and Deno each publish 150 (under the bound of 200 waiting), then block their loop for 6 s.
      const [node, denoStats] = await Promise.all([
        fetch(`${instances.node.origin}/burst/${room}?n=150&block=6000&tag=n`, { method: "POST" }),
        fetch(`${instances.deno.origin}/burst/${room}?n=150&block=6000&tag=d`, { method: "POST" }),
      ]);
      assert.equal(node.status, 200);
      assert.equal(denoStats.status, 200);
      await until(
        () => tally(onBun, "n", 150).lost === 0 && tally(onBun, "d", 150).lost === 0,
        "the bursts to cross",
        20_000,
      ).catch(async (error: unknown) => {
        const stats = await Promise.all(Object.values(instances).map((i) => get<Stats>(i, "/stats")));
        console.log(
          "# node's",
          tally(onBun, "n", 150),
          "deno's",
          tally(onBun, "d", 150),
          JSON.stringify(stats),
        );
        throw error;
      });
      await pause(200);
      assert.deepEqual(tally(onBun, "n", 150), { lost: 0, duplicated: 0, reordered: 0 });
      assert.deepEqual(tally(onBun, "d", 150), { lost: 0, duplicated: 0, reordered: 0 });
      const after = await get<Stats>(instances.node, "/stats");
      assert.equal(after.dropped, before.dropped, "nothing was dropped");
      assert.equal(after.brokerErrors, before.brokerErrors, "nothing was reported");
    });

    test("a hung broker: the publishes waiting are bounded, every loss is counted and reported, then it recovers", async () => {
      const room = `hung${Date.now()}`;
      const onBun = await join_(instances.bun, room);
      const onNode = await join_(instances.node, room);
      await crossing(onNode, onBun, "the room's subscription");
      const before = await get<Stats>(instances.node, "/stats");
      const rssBefore = rss(instances.node.pid);
      server.kill("SIGSTOP");
      let published = 0;
      let queuedMax = 0;
      // 8 MB offered over ~4 s, in bursts of 250 messages of 4 KB.
      for (let round = 0; round < 8; round++) {
        const stats = (await (
          await fetch(`${instances.node.origin}/burst/${room}?n=250&size=4000&from=${round * 250}`, {
            method: "POST",
          })
        ).json()) as Stats;
        published = stats.published - before.published;
        queuedMax = Math.max(queuedMax, (await get<Health>(instances.node, "/health")).queued);
        await pause(500);
      }
      await until(
        async () => !(await get<Health>(instances.node, "/health")).connected,
        "the hang to be detected",
        20_000,
      );
      const grown = rss(instances.node.pid) - rssBefore;
      server.kill("SIGCONT");
      await until(
        async () => (await get<Health>(instances.node, "/health")).connected,
        "the recovery",
        30_000,
      );
      await crossing(onNode, onBun, "delivery after the recovery", 30_000, true);
      const after = await get<Stats>(instances.node, "/stats");
      const { lost, duplicated, reordered } = tally(onBun, "burst", 2000);
      const crossedTotal = 2000 - lost;
      const dropped = after.dropped - before.dropped;
      console.log(
        `# ${broker.name} hang: ${published} published, ${crossedTotal} crossed, ${dropped} counted as dropped, queued at most ${queuedMax}, RSS +${(grown / 2 ** 20).toFixed(1)} MiB`,
      );
      assert.equal(published, 2000);
      assert.ok(queuedMax <= MAX_QUEUED, `at most ${MAX_QUEUED} publishes waited (${queuedMax})`);
      assert.ok(crossedTotal + dropped >= published, "every message crossed or was counted as dropped");
      assert.ok(dropped > 0 && after.brokerErrors > before.brokerErrors, "the loss was reported");
      assert.equal(duplicated, 0, "nothing arrived twice");
      assert.equal(reordered, 0, "what crossed kept its order");
      assert.ok(grown < 64 * 2 ** 20, "memory stayed bounded");
    });

    test("closing the server closes the app's websockets with 1001 and its backplane: every process exits by itself", async () => {
      for (const member of members) member.ws.terminate();
      for (const [name, instance] of Object.entries(instances)) {
        const staying = await openMember(`${instance.origin}/room/last${Date.now()}`);
        const goingAway = new Promise<number>((resolve) =>
          staying.ws.on("close", (code: number) => resolve(code)),
        );
        await fetch(`${instance.origin}/shutdown`, { method: "POST" });
        assert.equal(await goingAway, 1001, `${name} told its socket it is going away`);
        const code = await Promise.race([instance.exited, pause(20_000).then(() => "still running")]);
        assert.equal(code, 0, `${name} exited once its server was closed`);
      }
    });
  });

// A process's resident memory, from /proc.
function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) * 1024;
}
