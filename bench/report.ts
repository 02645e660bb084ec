// Turns measurements into bench/RESULTS.md: medians with ranges, ratios to the raw runtime, targets.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Contestant } from "./contestants.ts";
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

/** The targets of the performance issue, checked against one run. */
export function targets(results: Results): { target: string; value: string; met: boolean | undefined }[] {
  const out: { target: string; value: string; met: boolean | undefined }[] = [];
  const check = (target: string, value: number, limit: number, higherIsBetter: boolean): void => {
    const met = Number.isNaN(value) ? undefined : higherIsBetter ? value >= limit : value <= limit;
    out.push({ target, value: Number.isNaN(value) ? "n/a" : `${value.toFixed(2)}×`, met });
  };
  for (const s of ["S2", "S3", "S4"]) {
    const portico = cellOf(results, "node", "Portico", s);
    check(
      `Node ${s}: CPU/request ≤ 1.10× raw node:http`,
      cpu(portico) / cpu(cellOf(results, "node", "node:http (raw)", s)),
      1.1,
      false,
    );
    check(
      `Node ${s}: CPU/request ≤ Fastify's`,
      cpu(portico) / cpu(cellOf(results, "node", "Fastify", s)),
      1,
      false,
    );
    check(`Node ${s}: req/s ≥ 1.2× Hono`, rps(portico) / rps(cellOf(results, "node", "Hono", s)), 1.2, true);
    check(
      `Bun ${s}: req/s ≥ Elysia`,
      rps(cellOf(results, "bun", "Portico", s)) / rps(cellOf(results, "bun", "Elysia", s)),
      1,
      true,
    );
    check(
      `Deno ${s}: req/s ≥ 1.2× Hono`,
      rps(cellOf(results, "deno", "Portico", s)) / rps(cellOf(results, "deno", "Hono", s)),
      1.2,
      true,
    );
  }
  check(
    "Bun S1: req/s ≥ 0.95× raw Bun.serve",
    rps(cellOf(results, "bun", "Portico", "S1")) / rps(cellOf(results, "bun", "Bun.serve (raw)", "S1")),
    0.95,
    true,
  );
  check(
    "Deno S1: req/s ≥ 0.9× raw Deno.serve",
    rps(cellOf(results, "deno", "Portico", "S1")) / rps(cellOf(results, "deno", "Deno.serve (raw)", "S1")),
    0.9,
    true,
  );
  for (const runtime of ["node", "bun", "deno"]) {
    const rss = (name: (c: Contestant) => boolean) =>
      results.memory.find((m) => m.contestant.runtime === runtime && name(m.contestant))?.peakRssMiB ??
      Number.NaN;
    check(
      `${runtime} peak RSS ≤ 1.15× raw`,
      rss((c) => c.name === "Portico") / rss((c) => c.raw === true),
      1.15,
      false,
    );
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
    lines.push(
      `## ${runtime === "workerd" ? "workerd (Miniflare, smoke figure)" : runtime[0]!.toUpperCase() + runtime.slice(1)}`,
      "",
    );
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
  lines.push("## Targets", "", "| target | measured | met |", "|---|---:|:---:|");
  for (const t of targets(results))
    lines.push(`| ${t.target} | ${t.value} | ${t.met === undefined ? "n/a" : t.met ? "yes" : "**no**"} |`);
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
