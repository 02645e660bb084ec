// Static files under load: a 1 KiB and a 1 MiB file served by portico/static, @hono/node-server's
// serveStatic and @fastify/static, each on Node 20 pinned to one core, wrk on the other: requests per
// second, p99 and the server's CPU per request. Writes STATIC.md.
//   node bench/ensure.mjs && npx tsx bench/static.ts [--seconds 10]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProcess } from "../tests/runtimes/processes.ts";
import { root } from "./contestants.ts";
import { bundleNodeServer, load, type RunningServer, SERVER_CORE } from "./measure.ts";
import { writePage } from "./report.ts";

const seconds = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 10;
const CONNECTIONS = 32;
const files = join(root, "bench", ".work", "static-files");
mkdirSync(files, { recursive: true });
writeFileSync(join(files, "small.css"), `${"a { color: red }\n".repeat(60)}${"x".repeat(4)}`);
writeFileSync(join(files, "large.bin"), Buffer.alloc(1024 * 1024, 7));

const portico = await bundleNodeServer("node/static-portico.ts", "static-portico");
const tsx = (file: string) => [
  process.execPath,
  "--import",
  "tsx",
  join(root, "bench", "servers", "node", file),
];
const servers: [string, string[]][] = [
  ["Portico (portico/static)", [process.execPath, portico]],
  ["Portico, followSymlinks: true", [process.execPath, portico]],
  ["Hono (@hono/node-server serveStatic)", tsx("static-hono.ts")],
  ["Fastify (@fastify/static)", tsx("static-fastify.ts")],
];
const scenarios = [
  { id: "1k", title: "1 KiB file", path: "/static/small.css" },
  { id: "1m", title: "1 MiB file", path: "/static/large.bin" },
];

const results: Record<string, Record<string, { rps: number; p99: number; cpu: number; errors: number }>> = {};
for (const [name, command] of servers) {
  const server: RunningServer = await startProcess("taskset", ["-c", SERVER_CORE, ...command], {
    PORT: "0",
    NODE_ENV: "production",
    STATIC_ROOT: files,
    ...(name.includes("followSymlinks") ? { FOLLOW_SYMLINKS: "1" } : {}),
  });
  try {
    for (const scenario of scenarios) {
      const check = await fetch(server.origin + scenario.path);
      const size = (await check.arrayBuffer()).byteLength;
      if (check.status !== 200 || size < 1024)
        throw new Error(`${name} ${scenario.path}: ${check.status}, ${size} bytes`);
      await load(server, scenario, 2, CONNECTIONS, false);
      const sample = await load(server, scenario, seconds, CONNECTIONS, true);
      results[scenario.id] ??= {};
      results[scenario.id]![name] = {
        rps: sample.requestsPerSecond,
        p99: sample.p99Ms,
        cpu: sample.cpuMicros,
        errors: sample.errors,
      };
      console.log(name, scenario.title, Math.round(sample.requestsPerSecond), sample.cpuMicros.toFixed(0));
    }
  } finally {
    await server.stop();
  }
}

const rows = [
  "| file | server | requests/s | vs best | p99 (ms) | CPU/request (µs) | errors |",
  "|---|---|---:|---:|---:|---:|---:|",
];
for (const scenario of scenarios) {
  const byServer = results[scenario.id]!;
  const best = Math.max(...Object.values(byServer).map((r) => r.rps));
  for (const [name, r] of Object.entries(byServer)) {
    rows.push(
      `| ${scenario.title} | ${name} | ${Math.round(r.rps)} | ${(r.rps / best).toFixed(2)} | ${r.p99.toFixed(2)} | ${Math.round(r.cpu)} | ${r.errors} |`,
    );
  }
}
writePage(
  "STATIC.md",
  "Static files",
  "node bench/ensure.mjs && npx tsx bench/static.ts",
  `, ${seconds} s per run after 2 s of warm-up, wrk with ${CONNECTIONS} connections.`,
  [
    "",
    "Each server on Node 20 pinned to one core, wrk on the other, on this 2-core machine; the same two files",
    "(a 1 KiB stylesheet, a 1 MiB binary) with each library's defaults (ETag and Last-Modified computed; no",
    "compression). Portico runs bundled, as deployed; the peers from bench/node_modules through tsx, as in",
    "RESULTS.md. CPU per request is what the server process spent (user + system) over the run. Portico",
    "checks by default that a file's real path (symlinks resolved) is inside the root, one more file-system",
    "call per request than the peers, which follow symlinks anywhere: the second Portico row shows that cost.",
    "",
    ...rows,
  ],
);
