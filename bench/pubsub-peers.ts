// Topics across two instances beside Socket.IO 4 + @socket.io/redis-adapter and a hand-written `ws` +
// Redis reference, on one real redis-server: the same workloads, the same raw `ws` clients for all three
// (Socket.IO's protocol spoken by hand, so that no client library's cost is measured). Writes its section of
// PUBSUB.md.
//   npx tsx bench/pubsub-peers.ts [rounds]
//
// - fan-out: 1,000 members of one room, half on each instance; 100 messages published on A, 5 times.
// - chat: 100 rooms × 10 members, spread over both instances; each member says 10 things.
// - idle memory per socket: 1,000 idle members on one instance, heap (+ external) after a collection.
// - recovery replay (Portico; Socket.IO's connection state recovery needs another adapter): a member
//   away while 1,000 messages were said comes back with its last position.
// Every message is stamped when published; a member records when it arrives. Nothing lost is checked.
import { join } from "node:path";
import WebSocket from "ws";
import { root, type StartedProcess, startProcess } from "../tests/runtimes/processes.ts";
import { BROKERS, freePort, stopBroker } from "../tests/services/brokers.ts";
import { bundleNodeServer } from "./measure.ts";
import { writeSection } from "./report.ts";

type Kind = "Portico" | "Socket.IO" | "ws + Redis";
const KINDS: readonly Kind[] = ["Portico", "Socket.IO", "ws + Redis"];
const rounds = Number(process.argv[2] ?? 3);
const now = () => performance.timeOrigin + performance.now();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const median = (values: number[]) => quantile(values, 0.5);

// Portico's instance runs compiled (esbuild), as deployed and as its peers run (plain JavaScript): under
// tsx, every function gets a `name` property of its own (a property store of ~250 bytes per closure).
const portico = await bundleNodeServer("pubsub-instance.ts", "pubsub-instance");

function start(kind: Kind, env: Record<string, string>): Promise<StartedProcess> {
  const gc = "--expose-gc";
  if (kind === "Portico") return startProcess(process.execPath, [gc, portico], env);
  const file = kind === "Socket.IO" ? "socketio-instance.mjs" : "ws-redis-instance.mjs";
  return startProcess(process.execPath, [gc, join(root, "bench", "servers", file)], env);
}

/** A member of a room, over a raw websocket: each message's arrival time and text. */
interface Member {
  readonly ws: WebSocket;
  readonly got: { at: number; text: string }[];
  say(text: string): void;
}

function member(kind: Kind, origin: string, room: string, path = "room"): Promise<Member> {
  const base = origin.replace(/^http/, "ws");
  const url =
    kind === "Socket.IO"
      ? `${base}/socket.io/?EIO=4&transport=websocket&room=${room}`
      : `${base}/${path}/${room}`;
  const ws = new WebSocket(url);
  const got: Member["got"] = [];
  const say =
    kind === "Socket.IO"
      ? (text: string) => ws.send(`42${JSON.stringify(["m", text])}`)
      : (text: string) => ws.send(text);
  return new Promise((resolve, reject) => {
    ws.on("message", (data: Buffer) => {
      const at = now();
      const text = data.toString();
      if (kind !== "Socket.IO") {
        if (text === "ready") resolve({ ws, got, say });
        else got.push({ at, text });
        return;
      }
      // Engine.IO: 0 open, 2 ping; Socket.IO: 40 connected, 42 an event.
      if (text.startsWith("0")) ws.send("40");
      else if (text === "2") ws.send("3");
      else if (text.startsWith("40")) resolve({ ws, got, say });
      else if (text.startsWith("42"))
        got.push({ at, text: (JSON.parse(text.slice(2)) as [string, string])[1] });
    });
    ws.on("error", reject);
  });
}

async function members(kind: Kind, origins: string[], rooms: number, perRoom: number): Promise<Member[][]> {
  const all: Member[][] = [];
  for (let room = 0; room < rooms; room++) {
    const inRoom: Member[] = [];
    for (let i = 0; i < perRoom; i++)
      inRoom.push(await member(kind, origins[i % origins.length]!, `r${room}`));
    all.push(inRoom);
  }
  return all;
}

const post = (origin: string, path: string) =>
  fetch(`${origin}${path}`, { method: "POST" }).then((r) => r.text());

/** Waits until a message published on `origin` reaches every member (the subscriptions are made). */
async function subscribed(origin: string, room: string, everyone: Member[]): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    await post(origin, `/publish/${room}?n=1`);
    await pause(100);
    if (everyone.every((m) => m.got.length > 0)) break;
  }
  for (const m of everyone) m.got.length = 0;
}

const close = (all: Member[]) => {
  for (const m of all) m.ws.terminate();
};

interface Measure {
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  lost: number;
}

async function fanOut(kind: Kind, a: StartedProcess, b: StartedProcess): Promise<Measure> {
  const [everyone] = await members(kind, [a.origin, b.origin], 1, 1000);
  await subscribed(a.origin, "r0", everyone!);
  const latencies: number[] = [];
  const rates: number[] = [];
  let lost = 0;
  for (let round = 0; round < 5; round++) {
    const started = now();
    await post(a.origin, "/publish/r0?n=100&size=64");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && everyone!.some((m) => m.got.length < 100)) await pause(20);
    let last = started;
    for (const m of everyone!) {
      lost += 100 - new Set(m.got.map((g) => g.text.split(" ")[1])).size;
      for (const g of m.got) {
        latencies.push(g.at - Number(g.text.split(" ")[0]));
        last = Math.max(last, g.at);
      }
      m.got.length = 0;
    }
    rates.push((100 * everyone!.length) / ((last - started) / 1000));
    await pause(200);
  }
  close(everyone!);
  return {
    deliveriesPerSecond: median(rates),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    lost,
  };
}

async function chat(kind: Kind, a: StartedProcess, b: StartedProcess): Promise<Measure> {
  const rooms = await members(kind, [a.origin, b.origin], 100, 10);
  for (const [i, room] of rooms.entries()) await subscribed(i % 2 ? b.origin : a.origin, `r${i}`, room);
  const started = now();
  for (let said = 0; said < 10; said++) {
    for (const room of rooms) for (const [i, m] of room.entries()) m.say(`${now().toFixed(3)} ${i}.${said}`);
    await pause(5);
  }
  const everyone = rooms.flat();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && everyone.some((m) => m.got.length < 90)) await pause(20);
  const latencies: number[] = [];
  let last = started;
  let lost = 0;
  for (const m of everyone) {
    lost += 90 - new Set(m.got.map((g) => g.text.split(" ")[1])).size;
    for (const g of m.got) {
      latencies.push(g.at - Number(g.text.split(" ")[0]));
      last = Math.max(last, g.at);
    }
  }
  close(everyone);
  return {
    deliveriesPerSecond: (90 * everyone.length) / ((last - started) / 1000),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    lost,
  };
}

async function idleMemory(kind: Kind, a: StartedProcess): Promise<{ heap: number }> {
  const memory = async () =>
    (await (await fetch(`${a.origin}/memory`)).json()) as { heapUsed: number; external: number };
  const before = await memory();
  const [idle] = await members(kind, [a.origin], 1, 1000);
  await pause(500);
  const after = await memory();
  close(idle!);
  return { heap: (after.heapUsed + after.external - before.heapUsed - before.external) / 1000 };
}

async function replay(a: StartedProcess, b: StartedProcess): Promise<number> {
  const away = await member("Portico", a.origin, "replay", "kept");
  await post(b.origin, "/publish-kept/replay?n=1");
  for (let tries = 0; away.got.length === 0 && tries < 100; tries++) await pause(20);
  const since = away.got.at(-1)!.text.split(" ")[0]!;
  away.ws.terminate();
  await post(b.origin, "/publish-kept/replay?n=1000&size=64");
  const started = now();
  const back = await member("Portico", a.origin, `replay?since=${encodeURIComponent(since)}`, "kept");
  while (back.got.length < 1000 && now() - started < 10_000) await pause(5);
  const took = Math.max(...back.got.map((g) => g.at)) - started;
  back.ws.terminate();
  if (back.got.length !== 1000) throw new Error(`replayed ${back.got.length} of 1000`);
  return took;
}

const results = new Map<string, number[]>();
const lostTotal = new Map<Kind, number>();
const record = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value]);
const redis = BROKERS[0]!;
const port = await freePort();
const server = await redis.start(port);
try {
  for (let round = 0; round < rounds; round++) {
    for (const kind of KINDS) {
      const env = redis.env(port);
      const [a, b] = await Promise.all([start(kind, env), start(kind, env)]);
      try {
        const fan = await fanOut(kind, a, b);
        const talk = await chat(kind, a, b);
        const idle = await idleMemory(kind, a);
        for (const [name, m] of [
          ["fan", fan],
          ["chat", talk],
        ] as const) {
          record(`${kind} ${name} rate`, m.deliveriesPerSecond);
          record(`${kind} ${name} p50`, m.p50);
          record(`${kind} ${name} p99`, m.p99);
          lostTotal.set(kind, (lostTotal.get(kind) ?? 0) + m.lost);
        }
        record(`${kind} heap`, idle.heap);
        const replayed = kind === "Portico" ? await replay(a, b) : undefined;
        if (replayed !== undefined) record("Portico replay", replayed);
        console.log(round, kind, JSON.stringify({ fan, talk, idle, replayed }));
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    }
  }
} finally {
  await stopBroker(server);
}

const cell = (key: string, digits = 0) => {
  const values = results.get(key) ?? [];
  return `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;
};
const ratio = (key: string, higherIsBetter: boolean) => {
  const mine = median(results.get(`Portico ${key}`) ?? []);
  const theirs = median(results.get(`Socket.IO ${key}`) ?? []);
  return (higherIsBetter ? mine / theirs : theirs / mine).toFixed(2);
};
const lines = [
  "| workload | measure | Portico | Socket.IO | ws + Redis | Portico vs Socket.IO (>1: Portico better) |",
  "|---|---|---:|---:|---:|---:|",
];
for (const [name, label] of [
  ["fan", "fan-out 1 → 1,000"],
  ["chat", "100 rooms × 10"],
] as const) {
  lines.push(
    `| ${label} | deliveries/s | ${KINDS.map((k) => cell(`${k} ${name} rate`)).join(" | ")} | ${ratio(`${name} rate`, true)} |`,
    `| ${label} | p50 ms | ${KINDS.map((k) => cell(`${k} ${name} p50`, 1)).join(" | ")} | ${ratio(`${name} p50`, false)} |`,
    `| ${label} | p99 ms | ${KINDS.map((k) => cell(`${k} ${name} p99`, 1)).join(" | ")} | ${ratio(`${name} p99`, false)} |`,
  );
}
lines.push(
  `| idle socket | heap + external, bytes | ${KINDS.map((k) => cell(`${k} heap`)).join(" | ")} | ${ratio("heap", false)} |`,
  `| recovery | replay of 1,000 missed, ms | ${cell("Portico replay", 1)} | not with @socket.io/redis-adapter | none | |`,
  `| all | messages lost | ${KINDS.map((k) => lostTotal.get(k) ?? 0).join(" | ")} | |`,
);
writeSection(join(root, "bench", "PUBSUB.md"), "peers", [
  "## Beside Socket.IO 4 and a hand-written ws + Redis",
  "",
  `\`npx tsx bench/pubsub-peers.ts ${rounds}\` — ${new Date().toISOString().slice(0, 10)}. Two instances of each (Node ${process.versions.node}, separate processes) on one redis-server; ${rounds} rounds, contestants alternating; median [min–max] of the rounds. The same raw \`ws\` clients for all three (Socket.IO's protocol spoken by hand), in the benchmark's process: on this 2-core machine they share the CPU with both instances and Redis.`,
  "",
  ...lines,
]);
