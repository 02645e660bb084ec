// Starting a server pinned to one core, loading it with wrk pinned to the other, and reading what
// the server spent from /proc.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import WebSocket from "ws";
import { type StartedProcess, startProcess } from "../tests/runtimes/processes.ts";
import { type Contestant, root } from "./contestants.ts";
import { cpuSeconds } from "./others.ts";
import type { Scenario } from "./scenarios.ts";

const run = promisify(execFile);
export const SERVER_CORE = "0";
export const LOAD_CORE = "1";

/** A server under test. */
export type RunningServer = StartedProcess;

/** Starts a contestant on a port, pinned to the server core, and waits for its `READY <url>`. */
export function startServer(
  contestant: Contestant,
  port: number,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startProcess("taskset", ["-c", SERVER_CORE, ...contestant.command], {
    PORT: String(port),
    NODE_ENV: "production",
    ...contestant.env,
    ...env,
  });
}

/** Peak resident memory of a process, in MiB (VmHWM). */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

/** One wrk run's figures. */
export interface Sample {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** Server CPU time per request, in microseconds (NaN when the server's CPU cannot be read). */
  readonly cpuMicros: number;
  readonly errors: number;
}

/** Loads a server with wrk (pinned to the load core) for `seconds`, measuring the server's CPU. */
export async function load(
  server: RunningServer,
  scenario: Scenario,
  seconds: number,
  connections: number,
  measureCpu: boolean,
): Promise<Sample> {
  const args = [
    "-c",
    LOAD_CORE,
    "wrk",
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    "--timeout",
    "5s",
  ];
  if (scenario.script) args.push("-s", scenario.script);
  for (const [name, value] of Object.entries(scenario.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(server.origin + scenario.path);
  const before = measureCpu ? cpuSeconds(server.pid) : 0;
  const { stdout } = await run("taskset", args, { timeout: (seconds + 30) * 1000 });
  const after = measureCpu ? cpuSeconds(server.pid) : 0;
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const errors =
    (scenario.expectsError ? 0 : Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0)) +
    socketErrors(stdout);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p99Ms: toMs(/99%\s+([\d.]+)(us|ms|s)/.exec(stdout)),
    requests,
    cpuMicros: measureCpu && requests > 0 ? ((after - before) * 1e6) / requests : Number.NaN,
    errors,
  };
}

function socketErrors(stdout: string): number {
  const match = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return match ? Number(match[1]) + Number(match[3]) + Number(match[4]) : 0;
}

function toMs(match: RegExpExecArray | null): number {
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
}

/**
 * Bundles a Node server (a path under `bench/servers/`) into `bench/.work/<name>.mjs` and returns its path:
 * Portico on Node runs compiled, as deployed (tsx's on-the-fly transform adds a `__name` call to every
 * closure it creates).
 */
export async function bundleNodeServer(file: string, name: string): Promise<string> {
  const outfile = join(root, "bench", ".work", `${name}.mjs`);
  await build({
    entryPoints: [join(root, "bench", "servers", file)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  return outfile;
}

/** Opens a websocket and waits for the server's first message (the bench servers send "ready"). */
export function openReady(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once("message", () => resolve(ws));
    ws.once("error", reject);
  });
}
