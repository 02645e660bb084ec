// What other processes do to a measurement on a shared machine: the machine's busy CPU time from
// /proc/stat, less what this process (its reaped children included) and the given processes used.
// bench/ab.ts and bench/paired.ts repeat a sample or a round during which others used too much.
import { readFileSync } from "node:fs";

const CLOCK_TICKS = 100;

/** CPU seconds (user + system, all threads) a process and its reaped children have used. */
export function cpuSeconds(pid: number | "self"): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14–17 of stat (utime, stime, cutime, cstime), counted from after the command name.
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return ticks / CLOCK_TICKS;
}

/** A point to measure others' share from. */
export interface BusyMark {
  readonly machine: number;
  readonly ours: number;
  readonly wall: number;
}

/** The machine's busy CPU seconds, ours (this process and `pids`) and the wall clock, now. */
export function busyMark(pids: readonly number[] = []): BusyMark {
  const fields = readFileSync("/proc/stat", "utf8")
    .split("\n", 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
  const machine = fields.reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0) / CLOCK_TICKS;
  let ours = cpuSeconds("self");
  for (const pid of pids) ours += cpuSeconds(pid);
  return { machine, ours, wall: performance.now() / 1000 };
}

/** What other processes used since `before`, as a share of one core over the wall time. */
export function othersShare(before: BusyMark, pids: readonly number[] = []): number {
  const now = busyMark(pids);
  return Math.max(0, now.machine - before.machine - (now.ours - before.ours)) / (now.wall - before.wall);
}
