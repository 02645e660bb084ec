// What each middleware costs: the same route (a view rendering ~2 KiB of JSON) with no middleware and
// with each of portico/middleware's, on Node (compiled), loaded with wrk. Printed and written to
// MIDDLEWARE.md.
//   npx tsx bench/middleware.ts [--quick]
import { bundleNodeServer, load, type Sample, startServer } from "./measure.ts";
import { writePage } from "./report.ts";
import type { Scenario } from "./scenarios.ts";

const quick = process.argv.includes("--quick");
const settings = quick ? { runs: 1, seconds: 1, warmup: 1 } : { runs: 3, seconds: 5, warmup: 2 };
const stacks = [
  "none",
  "cors",
  "csrf",
  "secureHeaders",
  "etag",
  "compress",
  "logger",
  "bodyLimit",
  "timeout",
  "all",
];
const headers = { origin: "https://app.example", "accept-encoding": "gzip", accept: "application/json" };
const scenario: Scenario = { id: "M", title: "GET /items → ~2 KiB JSON", path: "/items", headers };

const bundle = await bundleNodeServer("node/portico-middleware.ts", "portico-middleware");

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: { stack: string; rps: number; cpu: number; samples: Sample[] }[] = [];
let port = 4300;
// Interleaved rounds, so that drift on a shared machine spreads over every stack alike.
const samples = new Map<string, Sample[]>(stacks.map((stack) => [stack, []]));
for (let round = 0; round < settings.runs; round++) {
  for (const stack of stacks) {
    const server = await startServer(
      { runtime: "node", name: stack, command: [process.execPath, bundle] },
      port++,
      { MIDDLEWARE: stack },
    );
    try {
      await load(server, scenario, settings.warmup, 64, false);
      const sample = await load(server, scenario, settings.seconds, 64, true);
      if (sample.errors > 0) throw new Error(`${stack}: ${sample.errors} errors`);
      samples.get(stack)!.push(sample);
      console.log(
        `${stack.padEnd(14)} ${Math.round(sample.requestsPerSecond).toString().padStart(7)} req/s  cpu ${sample.cpuMicros.toFixed(1)} µs/req`,
      );
    } finally {
      await server.stop();
    }
  }
}
for (const stack of stacks) {
  const list = samples.get(stack)!;
  rows.push({
    stack,
    rps: median(list.map((s) => s.requestsPerSecond)),
    cpu: median(list.map((s) => s.cpuMicros)),
    samples: list,
  });
}
const base = rows[0]!;
const range = (values: number[]): string =>
  values.length > 1 ? ` [${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}]` : "";
writePage(
  quick ? "MIDDLEWARE-quick.md" : "MIDDLEWARE.md",
  "Per-middleware overhead (Node, compiled)",
  `npx tsx bench/middleware.ts${quick ? " --quick" : ""}`,
  `, ${settings.runs} × ${settings.seconds} s per stack, wrk -t1 -c64, server and wrk pinned to one core each.`,
  [
    `Request: \`GET /items\` (a view, ~2 KiB of JSON) with \`Origin\`, \`Accept-Encoding: gzip\`. Medians [min–max].`,
    "",
    "| middleware | req/s | ÷ none | CPU µs/req | + µs/req |",
    "|---|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.stack} | ${Math.round(row.rps)} | ${(row.rps / base.rps).toFixed(2)} | ${row.cpu.toFixed(1)}${range(row.samples.map((s) => s.cpuMicros))} | ${row === base ? "—" : (row.cpu - base.cpu).toFixed(1)} |`,
    ),
  ],
);
