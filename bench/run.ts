// The HTTP benchmark: every contestant, the four scenarios, wrk on loopback; results to RESULTS.md.
//   npx tsx bench/run.ts           full run (3 × 5 s per cell)
//   npx tsx bench/run.ts --quick   rough figures: the contestants the targets name, 1 × 1 s per cell
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { type Contestant, contestants, root } from "./contestants.ts";
import { bundleNodeServer, load, peakRssMiB, type Sample, startServer } from "./measure.ts";
import { type Cell, type Results, renderResults } from "./report.ts";
import { checkContract, checkS5, scenarios } from "./scenarios.ts";

const quick = process.argv.includes("--quick");
const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice(7);
const settings = quick
  ? { runs: 1, seconds: 1, warmup: 1, connections: 64 }
  : { runs: 3, seconds: 5, warmup: 2, connections: 64 };

// Portico on Node runs compiled, as deployed; Bun and Deno run the TypeScript sources directly.
await bundleNodeServer("node/portico.ts", "portico-node");

const cells: Cell[] = [];
const memory: { contestant: Contestant; peakRssMiB: number }[] = [];
let port = 4100;

const QUICK = new Set([
  "node:http (raw)",
  "Bun.serve (raw)",
  "Deno.serve (raw)",
  "Portico",
  "Hono",
  "Hono + requestId",
  "Fastify",
  "Elysia",
]);

for (const contestant of contestants) {
  if (quick && !QUICK.has(contestant.name)) continue;
  if (only && !`${contestant.runtime}:${contestant.name}`.toLowerCase().includes(only.toLowerCase()))
    continue;
  const server = await startServer(contestant, port++);
  try {
    await checkContract(server.origin);
    const s5 = scenarios.find((scenario) => scenario.id === "S5")!;
    if (s5.onlyFor?.includes(contestant.name)) await checkS5(server.origin);
    for (const scenario of scenarios) {
      if (scenario.onlyFor !== undefined && !scenario.onlyFor.includes(contestant.name)) continue;
      await load(server, scenario, settings.warmup, settings.connections, false);
      const samples: Sample[] = [];
      for (let i = 0; i < settings.runs; i++) {
        samples.push(await load(server, scenario, settings.seconds, settings.connections, true));
      }
      cells.push({ contestant, scenario, samples });
      const last = samples[samples.length - 1]!;
      console.log(
        `${contestant.runtime.padEnd(7)} ${contestant.name.padEnd(18)} ${scenario.id} ${Math.round(
          last.requestsPerSecond,
        )
          .toString()
          .padStart(
            7,
          )} req/s  p99 ${last.p99Ms.toFixed(2)} ms  cpu ${last.cpuMicros.toFixed(1)} µs/req${last.errors ? `  errors ${last.errors}` : ""}`,
      );
    }
    memory.push({ contestant, peakRssMiB: peakRssMiB(server.pid) });
  } finally {
    await server.stop();
  }
}

const versions = (command: string, args: string[]): string => {
  try {
    return execFileSync(command, args, { encoding: "utf8" }).trim().split("\n")[0]!;
  } catch (error) {
    // `wrk -v` prints its version and exits with 1.
    const stdout = String((error as { stdout?: unknown }).stdout ?? "").trim();
    return stdout === "" ? "unknown" : stdout.split("\n")[0]!;
  }
};
const results: Results = {
  date: new Date().toISOString(),
  mode: quick ? "quick" : "full",
  settings,
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    node: process.version,
    bun: versions(join(root, ".runtimes/node_modules/.bin/bun"), ["--version"]),
    deno: versions(join(root, "node_modules/.bin/deno"), ["--version"]),
    wrk: versions("wrk", ["-v"]),
  },
  cells,
  memory,
};
const file = join(root, "bench", quick ? "RESULTS-quick.md" : "RESULTS.md");
if (!only) writeFileSync(file, renderResults(results));
writeFileSync(join(root, "bench", ".work-results.json"), JSON.stringify(results, null, 2));
console.log(only ? "(--only: results not written)" : `Wrote ${file}`);
