// Turns measurements into bench/RESULTS.md: medians with ranges, ratios to the raw runtime, targets.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Contestant, root } from "./contestants.ts";
import type { Sample } from "./measure.ts";
import type { Scenario } from "./scenarios.ts";

/** One contestant × scenario, with its samples. */
export interface Cell {
  readonly contestant: Contestant;
  readonly scenario: Scenario;
  readonly samples: readonly Sample[];
}

/** Everything one run measured. */
export interface Results {
  readonly date: string;
  readonly mode: string;
  readonly settings: { runs: number; seconds: number; warmup: number; connections: number };
  readonly machine: Record<string, string | number>;
  readonly cells: readonly Cell[];
  readonly memory: readonly { contestant: Contestant; peakRssMiB: number }[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function spread(values: readonly number[], digits: number): string {
  const clean = values.filter((v) => !Number.isNaN(v));
  if (clean.length === 0) return "n/a";
  const m = median(clean).toFixed(digits);
  return clean.length === 1
    ? m
    : `${m} [${Math.min(...clean).toFixed(digits)}–${Math.max(...clean).toFixed(digits)}]`;
}

const ratio = (value: number, base: number): string =>
  Number.isFinite(value / base) ? `${(value / base).toFixed(2)}×` : "n/a";

function cellOf(results: Results, runtime: string, name: string, scenario: string): Cell | undefined {
  return results.cells.find(
    (c) => c.contestant.runtime === runtime && c.contestant.name === name && c.scenario.id === scenario,
  );
}

const metric = (cell: Cell | undefined, pick: (s: Sample) => number): number =>
  cell ? median(cell.samples.map(pick)) : Number.NaN;
const rps = (cell: Cell | undefined): number => metric(cell, (s) => s.requestsPerSecond);
const cpu = (cell: Cell | undefined): number => metric(cell, (s) => s.cpuMicros);

/**
 * One contestant's figure over another's, in the same run: the ratio of the medians, and the range
 * [worst–best] the samples allow (every sample of one against every sample of the other).
 */
function compare(
  a: Cell | undefined,
  b: Cell | undefined,
  pick: (s: Sample) => number,
): { value: number; range: string } {
  if (a === undefined || b === undefined) return { value: Number.NaN, range: "" };
  const as = a.samples.map(pick);
  const bs = b.samples.map(pick);
  const low = Math.min(...as) / Math.max(...bs);
  const high = Math.max(...as) / Math.min(...bs);
  return { value: median(as) / median(bs), range: ` [${low.toFixed(2)}–${high.toFixed(2)}]` };
}

/**
 * The targets of the performance issue, checked against one run, and the like-for-like figures beside
 * them (`met` undefined): Portico against Hono with its requestId middleware, and against the raw
 * server sending the same request id header.
 */
export function targets(results: Results): { target: string; value: string; met: boolean | undefined }[] {
  const out: { target: string; value: string; met: boolean | undefined }[] = [];
  const check = (
    target: string,
    ratioOf: { value: number; range: string },
    limit: number | undefined,
    higherIsBetter: boolean,
  ): void => {
    const { value, range } = ratioOf;
    const met =
      Number.isNaN(value) || limit === undefined
        ? undefined
        : higherIsBetter
          ? value >= limit
          : value <= limit;
    out.push({ target, value: Number.isNaN(value) ? "n/a" : `${value.toFixed(2)}×${range}`, met });
  };
  const cell = (runtime: string, name: string, scenario: string) => cellOf(results, runtime, name, scenario);
  const bySpeed = (s: Sample) => s.requestsPerSecond;
  const byCpu = (s: Sample) => s.cpuMicros;
  // Issue 23's targets: every peer a runtime's users compare with, on every scenario.
  const peers: [runtime: string, label: string, names: string[]][] = [
    ["node", "Node", ["Fastify", "h3", "Hono"]],
    ["bun", "Bun", ["Elysia", "Hono"]],
    ["deno", "Deno", ["Hono"]],
    ["workerd", "workerd", ["Hono"]],
  ];
  for (const [runtime, label, names] of peers) {
    for (const s of runtime === "workerd" ? ["S1", "S2", "S3", "S4"] : ["S1", "S2", "S3", "S4", "S5"]) {
      for (const peer of names) {
        const mine = cell(runtime, "Portico", s);
        check(`${label} ${s}: req/s ≥ ${peer}`, compare(mine, cell(runtime, peer, s), bySpeed), 1, true);
        if (runtime === "node")
          check(`Node ${s}: CPU/request ≤ ${peer}'s`, compare(mine, cell(runtime, peer, s), byCpu), 1, false);
      }
    }
  }
  check(
    "Bun S1: req/s ≥ 0.95× raw Bun.serve",
    compare(cell("bun", "Portico", "S1"), cell("bun", "Bun.serve (raw)", "S1"), bySpeed),
    0.95,
    true,
  );
  check(
    "Deno S1: req/s ≥ 0.90× raw Deno.serve",
    compare(cell("deno", "Portico", "S1"), cell("deno", "Deno.serve (raw)", "S1"), bySpeed),
    0.9,
    true,
  );
  for (const [runtime, label, raw] of [
    ["node", "Node", "node:http (raw)"],
    ["bun", "Bun", "Bun.serve (raw)"],
    ["deno", "Deno", "Deno.serve (raw)"],
  ] as const) {
    check(
      `${label} S4 (JSON body): CPU/request ≤ 1.1× the raw server's`,
      compare(cell(runtime, "Portico", "S4"), cell(runtime, raw, "S4"), byCpu),
      1.1,
      false,
    );
  }
  for (const [runtime, raw] of [
    ["bun", "Bun.serve (raw) + id"],
    ["deno", "Deno.serve (raw) + id"],
  ] as const) {
    const label = runtime === "bun" ? "Bun" : "Deno";
    check(
      `${label} S1 like for like: req/s ÷ raw with the same request id header`,
      compare(cell(runtime, "Portico", "S1"), cell(runtime, raw, "S1"), bySpeed),
      undefined,
      true,
    );
    for (const s of ["S1", "S2", "S3", "S4"]) {
      check(
        `${label} ${s} like for like: req/s ÷ Hono + requestId`,
        compare(cell(runtime, "Portico", s), cell(runtime, "Hono + requestId", s), bySpeed),
        undefined,
        true,
      );
    }
  }
  for (const s of ["S2", "S3", "S4"]) {
    check(
      `Node ${s}: CPU/request ÷ raw node:http`,
      compare(cell("node", "Portico", s), cell("node", "node:http (raw)", s), byCpu),
      undefined,
      false,
    );
  }
  for (const runtime of ["node", "bun", "deno"]) {
    const rss = (name: (c: Contestant) => boolean) =>
      results.memory.find((m) => m.contestant.runtime === runtime && name(m.contestant))?.peakRssMiB ??
      Number.NaN;
    const value = rss((c) => c.name === "Portico") / rss((c) => c.raw === true);
    check(`${runtime} peak RSS under load ÷ raw`, { value, range: "" }, undefined, false);
  }
  return out;
}

/** The markdown of a run. */
export function renderResults(results: Results): string {
  const lines: string[] = [];
  const { settings, machine } = results;
  lines.push(`# Benchmark results (${results.mode} run)`, "");
  lines.push(
    `${results.date} — ${machine.cores} cores (${machine.cpu}); Node ${machine.node}, Bun ${machine.bun}, ${machine.deno}, ${machine.wrk}.`,
    `Server pinned to core 0, wrk (1 thread, ${settings.connections} connections) to core 1, loopback. ` +
      `Each cell: ${settings.warmup} s warm-up, then ${settings.runs} × ${settings.seconds} s; figures are median [min–max]. ` +
      "CPU is the server's user + system time per request from /proc; ratios compare medians with the raw runtime of the same run.",
    "",
  );
  for (const runtime of ["node", "bun", "deno", "workerd"]) {
    const names = [
      ...new Set(results.cells.filter((c) => c.contestant.runtime === runtime).map((c) => c.contestant.name)),
    ];
    if (names.length === 0) continue;
    const raw = results.cells.find((c) => c.contestant.runtime === runtime && c.contestant.raw)?.contestant
      .name;
    lines.push(`## ${runtime === "workerd" ? "workerd" : runtime[0]!.toUpperCase() + runtime.slice(1)}`, "");
    for (const scenario of [...new Set(results.cells.map((c) => c.scenario.id))]) {
      const title = results.cells.find((c) => c.scenario.id === scenario)!.scenario.title;
      lines.push(`### ${scenario} — ${title}`, "");
      lines.push(
        "| contestant | req/s | × raw | p99 ms | CPU µs/req | × raw |",
        "|---|---:|---:|---:|---:|---:|",
      );
      const base = raw ? cellOf(results, runtime, raw, scenario) : undefined;
      for (const name of names) {
        const cell = cellOf(results, runtime, name, scenario);
        if (!cell) continue;
        lines.push(
          `| ${name} | ${spread(
            cell.samples.map((s) => s.requestsPerSecond),
            0,
          )} | ${ratio(rps(cell), rps(base))} | ${spread(
            cell.samples.map((s) => s.p99Ms),
            2,
          )} | ${spread(
            cell.samples.map((s) => s.cpuMicros),
            1,
          )} | ${ratio(cpu(cell), cpu(base))} |`,
        );
      }
      lines.push("");
    }
    const mem = results.memory.filter((m) => m.contestant.runtime === runtime);
    const rawRss = mem.find((m) => m.contestant.raw)?.peakRssMiB ?? Number.NaN;
    if (mem.some((m) => !Number.isNaN(m.peakRssMiB))) {
      lines.push(
        "Peak RSS over the whole run (MiB): " +
          mem
            .map((m) => `${m.contestant.name} ${m.peakRssMiB.toFixed(1)} (${ratio(m.peakRssMiB, rawRss)})`)
            .join(", ") +
          ".",
        "",
      );
    }
  }
  lines.push(
    "## Targets",
    "",
    "Ratios of medians in this run, with [worst–best] over every pair of samples. Rows marked — are not",
    "targets: they compare like for like (the request id Portico always sends, sent by the other too).",
    "",
    "| target | measured | met |",
    "|---|---:|:---:|",
  );
  for (const t of targets(results)) {
    const met = t.met === undefined ? (t.value === "n/a" ? "n/a" : "—") : t.met ? "yes" : "**no**";
    lines.push(`| ${t.target} | ${t.value} | ${met} |`);
  }
  lines.push("");
  return lines.join("\n");
}

/**
 * Puts a section (between `<!-- name:start -->` and `<!-- name:end -->`) into a results file written by
 * run.ts: replaced where it already is, appended otherwise.
 */
export function writeSection(file: string, name: string, lines: readonly string[]): void {
  const [open, close] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const section = [open, ...lines, close, ""].join("\n");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark results\n\n";
  const start = current.indexOf(open);
  const end = current.indexOf(close);
  writeFileSync(
    file,
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + close.length + 1)
      : `${current.trimEnd()}\n\n${section}`,
  );
}

/**
 * Writes a benchmark's page, `bench/<file>`, and prints it: the title, the command that made it with
 * the date and what follows on that line (`how`), then the rest (tables, notes).
 */
export function writePage(
  file: string,
  title: string,
  command: string,
  how: string,
  rest: readonly string[],
): void {
  const date = new Date().toISOString().slice(0, 10);
  const text = [`# ${title}`, "", `\`${command}\` — ${date}${how}`, ...rest, ""].join("\n");
  writeFileSync(join(root, "bench", file), text);
  console.log(text);
}
