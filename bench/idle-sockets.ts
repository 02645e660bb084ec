// Memory per idle websocket, beside the peers on each runtime: a server holds 10,000 sockets (each in
// one topic, as a broadcasting app keeps them), and its RSS is read before and after. Node servers run
// compiled (esbuild), as deployed. Writes the "idle" section of RESULTS.md (RESULTS-quick.md and 2,000
// sockets with --quick).
//   npx tsx bench/idle-sockets.ts [--quick]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type WebSocket from "ws";
import { root, startProcess } from "../tests/runtimes/processes.ts";
import { bundleNodeServer, openReady, peakRssMiB } from "./measure.ts";
import { writeSection } from "./report.ts";

const quick = process.argv.includes("--quick");
const SOCKETS = quick ? 2_000 : 10_000;
const BATCH = 500;
const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const deno = join(root, "node_modules", ".bin", "deno");
const idle = (file: string): string => join(root, "bench", "servers", "idle", file);
const nodeServer = async (file: string): Promise<string[]> => [
  process.execPath,
  await bundleNodeServer(`idle/${file}`, `idle-${file.replace(/\.ts$/, "")}`),
];
const denoServer = (file: string): string[] => [
  deno,
  "run",
  "--allow-net",
  "--allow-env",
  "--allow-read",
  idle(file),
];

const servers: { runtime: string; name: string; command: string[] }[] = [
  { runtime: "Node", name: "node:http + ws (raw)", command: await nodeServer("node-ws.ts") },
  { runtime: "Node", name: "Portico", command: await nodeServer("portico.ts") },
  { runtime: "Node", name: "Hono (@hono/node-server)", command: await nodeServer("node-hono.ts") },
  { runtime: "Node", name: "Fastify (@fastify/websocket)", command: await nodeServer("node-fastify.ts") },
  { runtime: "Bun", name: "Bun.serve (raw)", command: [bun, "run", idle("bun-raw.ts")] },
  { runtime: "Bun", name: "Portico", command: [bun, "run", idle("portico.ts")] },
  { runtime: "Bun", name: "Hono (hono/bun)", command: [bun, "run", idle("bun-hono.ts")] },
  { runtime: "Bun", name: "Elysia", command: [bun, "run", idle("bun-elysia.ts")] },
  { runtime: "Deno", name: "Deno.serve (raw)", command: denoServer("deno-raw.ts") },
  { runtime: "Deno", name: "Portico", command: denoServer("portico.ts") },
  { runtime: "Deno", name: "Hono (hono/deno)", command: denoServer("deno-hono.ts") },
];

const rssMiB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

interface Row {
  runtime: string;
  name: string;
  before: number;
  after: number;
  perSocket: number;
  peak: number;
}
const rows: Row[] = [];
for (const { runtime, name, command } of servers) {
  const server = await startProcess(command[0]!, command.slice(1));
  const sockets: WebSocket[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = rssMiB(server.pid);
    const url = `${server.origin.replace("http", "ws")}/bench`;
    for (let i = 0; i < SOCKETS; i += BATCH) {
      sockets.push(...(await Promise.all(Array.from({ length: BATCH }, () => openReady(url)))));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = rssMiB(server.pid);
    const row = {
      runtime,
      name,
      before,
      after,
      perSocket: ((after - before) * 1024) / SOCKETS,
      peak: peakRssMiB(server.pid),
    };
    rows.push(row);
    console.log(
      `${runtime} ${name}: ${row.perSocket.toFixed(1)} KiB per socket (${before.toFixed(0)} → ${after.toFixed(0)} MiB)`,
    );
  } finally {
    for (const socket of sockets) socket.terminate();
    await server.stop();
  }
}

const lines = [
  `## Memory per idle websocket (${SOCKETS.toLocaleString("en")} sockets)`,
  "",
  "`npx tsx bench/idle-sockets.ts`: each server upgrades `/bench`, keeps the socket in one topic (native",
  "pub/sub where the runtime or framework has one, a `Set` otherwise) and sends `ready`; the sockets are",
  "opened 500 at a time from a Node client and held idle. RSS of the server process, from /proc, in MiB.",
  "",
];
for (const runtime of ["Node", "Bun", "Deno"]) {
  const group = rows.filter((row) => row.runtime === runtime);
  const raw = group[0]!;
  lines.push(
    `### ${runtime}`,
    "",
    "| server | RSS before | RSS with the sockets | KiB per socket | × raw | peak RSS |",
    "|---|---:|---:|---:|---:|---:|",
    ...group.map(
      (row) =>
        `| ${row.name} | ${row.before.toFixed(0)} | ${row.after.toFixed(0)} | ${row.perSocket.toFixed(1)} | ${(row.perSocket / raw.perSocket).toFixed(2)}× | ${row.peak.toFixed(0)} |`,
    ),
    "",
  );
}
const file = join(root, "bench", quick ? "RESULTS-quick.md" : "RESULTS.md");
writeSection(file, "idle", lines);
console.log(lines.join("\n"));
