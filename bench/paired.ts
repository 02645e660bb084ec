// The loopback figure that can be read on a noisy 2-core machine: server CPU per request as a ratio to the
// raw runtime server of the same round, contestants interleaved. Every contestant of one runtime (the raw
// server included) is started at once, pinned to the server core, and loaded in turn by wrk pinned to the
// other core, in short samples; one round loads each once (the order rotated every round), and gives each
// its ratio to the raw server's CPU per request in that round, and Portico's ratio to each peer. A slow
// loopback sample does fewer requests and uses less CPU, so the ratio holds where req/s swings. A round
// during which other processes used more than `--others-max` of a core (the machine's busy time from
// /proc/stat, less the servers' and this process's own and its reaped wrk runs') is invalid: repeated,
// never counted; too few valid rounds make the row unreadable. Figures: the median of the round ratios
// and its bootstrap 95 % interval; req/s beside them decides nothing.
//
//   npx tsx bench/paired.ts --runtime=node                     Portico, Fastify, h3 against node:http
//   npx tsx bench/paired.ts --runtime=bun --scenarios=S1,S2 --rounds=15 --seconds=1
//   options: --contestants=Portico,Hono (names as bench/contestants.ts gives them), --others-max=0.3
import { readFileSync } from "node:fs";
import { type Contestant, contestants } from "./contestants.ts";
import { bundleNodeServer, load, type RunningServer, startServer } from "./measure.ts";
import { busyMark, othersShare } from "./others.ts";
import { checkContract, checkS5, scenarios } from "./scenarios.ts";
import { bootstrapInterval, median } from "./stats.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNTIME = option("runtime") ?? "node";
const ROUNDS = Number(option("rounds") ?? 10);
const SECONDS = Number(option("seconds") ?? 1);
const OTHERS_MAX = Number(option("others-max") ?? 0.3);
const PEERS: Record<string, string[]> = {
  node: ["Portico", "Fastify", "h3", "Hono"],
  bun: ["Portico", "Elysia", "Hono", "Bun.serve (raw) + id"],
  deno: ["Portico", "Hono", "Hono + requestId", "Deno.serve (raw) + id"],
  workerd: ["Portico", "Hono", "Hono + requestId"],
};
const names = option("contestants")?.split(",") ?? PEERS[RUNTIME];
if (names === undefined) throw new Error(`--runtime: node, bun, deno or workerd, not ${RUNTIME}`);
const chosen = contestants.filter(
  (contestant) => contestant.runtime === RUNTIME && (contestant.raw || names.includes(contestant.name)),
);
const raw = chosen.find((contestant) => contestant.raw);
if (raw === undefined || chosen.length < 2) throw new Error(`no raw server or no contestant for ${RUNTIME}`);
const wanted = option("scenarios")?.split(",");

if (RUNTIME === "node") await bundleNodeServer("node/portico.ts", "portico-node");
const servers = new Map<Contestant, RunningServer>();
let port = 4300;
try {
  for (const contestant of chosen) {
    const server = await startServer(contestant, port++);
    servers.set(contestant, server);
    await checkContract(server.origin);
  }
  console.log(
    `# Paired loopback, ${RUNTIME}: ${ROUNDS} rounds of ${SECONDS} s samples; load average ${loadAverage()}; rounds with others over ${OTHERS_MAX} of a core repeated\n`,
  );
  console.log(
    "| scenario | contestant | CPU µs/req | ÷ raw (median [95 %]) | Portico ÷ it | req/s | valid rounds |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const scenario of scenarios) {
    if (wanted !== undefined && !wanted.includes(scenario.id)) continue;
    const here = chosen.filter(
      (c) => c.raw || scenario.onlyFor === undefined || scenario.onlyFor.includes(c.name),
    );
    if (here.length < 2) continue;
    if (scenario.id === "S5") for (const c of here) if (!c.raw) await checkS5(servers.get(c)!.origin);
    for (const c of here) await load(servers.get(c)!, scenario, 1, 64, false);
    const cpu = new Map<Contestant, number[]>(here.map((c) => [c, []]));
    const rps = new Map<Contestant, number[]>(here.map((c) => [c, []]));
    let invalid = 0;
    for (let round = 0; cpu.get(raw)!.length < ROUNDS && round < ROUNDS * 3; round++) {
      const order = here.map((_, i) => here[(i + round) % here.length]!);
      const pids = [...servers.values()].map((server) => server.pid);
      const before = busyMark(pids);
      const measured = new Map<Contestant, { cpu: number; rps: number }>();
      for (const c of order) {
        const sample = await load(servers.get(c)!, scenario, SECONDS, 64, true);
        measured.set(c, { cpu: sample.cpuMicros, rps: sample.requestsPerSecond });
      }
      if (othersShare(before, pids) > OTHERS_MAX || [...measured.values()].some((m) => !(m.cpu > 0))) {
        invalid++;
        continue;
      }
      for (const c of here) {
        cpu.get(c)!.push(measured.get(c)!.cpu);
        rps.get(c)!.push(measured.get(c)!.rps);
      }
    }
    const valid = cpu.get(raw)!.length;
    const portico = here.find((c) => c.name === "Portico");
    for (const c of here) {
      const row = `| ${scenario.id} | ${c.name} | ${fmt(median(cpu.get(c)!))}`;
      if (valid < ROUNDS) {
        console.log(`${row} | unreadable | | | ${valid} (${invalid} invalid) |`);
        continue;
      }
      const toRaw = ratios(cpu.get(c)!, cpu.get(raw)!);
      const vsPortico =
        portico && c !== portico && !c.raw ? ratios(cpu.get(portico)!, cpu.get(c)!) : undefined;
      console.log(
        `${row} | ${interval(toRaw)} | ${vsPortico ? interval(vsPortico) : ""} | ${Math.round(median(rps.get(c)!))} | ${valid} (${invalid} invalid) |`,
      );
    }
  }
  console.log(`\nload average after: ${loadAverage()}`);
} finally {
  for (const server of servers.values()) await server.stop();
}

function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!);
}

function interval(values: readonly number[]): string {
  const [low, high] = bootstrapInterval(values);
  return `${median(values).toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}]`;
}

function fmt(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : "—";
}

function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}
