// Who runs in the benchmark, and how each one is started.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const root: string = join(here, "..");
const runtimes = join(root, ".runtimes", "node_modules", ".bin");

/** A server to measure. */
export interface Contestant {
  readonly runtime: "node" | "bun" | "deno" | "workerd";
  readonly name: string;
  /** The raw runtime: the limit the others are compared with. */
  readonly raw?: boolean;
  readonly command: readonly string[];
  /** Environment for the server process. */
  readonly env?: Readonly<Record<string, string>>;
}

const server = (runtime: string, file: string): string => join(here, "servers", runtime, file);
const node = (file: string): string[] => [process.execPath, "--import", "tsx", server("node", file)];
const bun = (file: string): string[] => [join(runtimes, "bun"), "run", server("bun", file)];
const deno = (file: string): string[] => [
  join(root, "node_modules", ".bin", "deno"),
  "run",
  "--allow-net",
  "--allow-env",
  "--allow-read",
  server("deno", file),
];

const workerd = (file: string): string[] => ["bash", server("workerd", "start.sh"), file];

export const contestants: readonly Contestant[] = [
  { runtime: "node", name: "node:http (raw)", raw: true, command: node("raw.ts") },
  // As an app is deployed: compiled to JavaScript (bench/run.ts bundles it with esbuild first).
  { runtime: "node", name: "Portico", command: [process.execPath, join(here, ".work", "portico-node.mjs")] },
  { runtime: "node", name: "Hono", command: node("hono.ts") },
  { runtime: "node", name: "Hono + requestId", command: node("hono.ts"), env: { REQUEST_ID: "1" } },
  { runtime: "node", name: "Fastify", command: node("fastify.ts") },
  { runtime: "node", name: "h3", command: node("h3.ts") },
  { runtime: "node", name: "Express", command: node("express.ts") },
  { runtime: "bun", name: "Bun.serve (raw)", raw: true, command: bun("raw.ts") },
  { runtime: "bun", name: "Bun.serve (raw) + id", command: bun("raw.ts"), env: { REQUEST_ID: "1" } },
  { runtime: "bun", name: "Portico", command: bun("portico.ts") },
  { runtime: "bun", name: "Hono", command: bun("hono.ts") },
  { runtime: "bun", name: "Hono + requestId", command: bun("hono.ts"), env: { REQUEST_ID: "1" } },
  { runtime: "bun", name: "Elysia", command: bun("elysia.ts") },
  { runtime: "deno", name: "Deno.serve (raw)", raw: true, command: deno("raw.ts") },
  { runtime: "deno", name: "Deno.serve (raw) + id", command: deno("raw.ts"), env: { REQUEST_ID: "1" } },
  // What reading one request header costs Deno itself (it then copies every header after the response).
  {
    runtime: "deno",
    name: "Deno.serve (raw) + id + Host read",
    command: deno("raw.ts"),
    env: { REQUEST_ID: "1", READ_HOST: "1" },
  },
  { runtime: "deno", name: "Portico", command: deno("portico.ts") },
  { runtime: "deno", name: "Hono", command: deno("hono.ts") },
  { runtime: "deno", name: "Hono + requestId", command: deno("hono.ts"), env: { REQUEST_ID: "1" } },
  // workerd itself, serving a bundled module Worker (servers/workerd/start.sh).
  { runtime: "workerd", name: "workerd (raw)", raw: true, command: workerd("raw.ts") },
  { runtime: "workerd", name: "Portico", command: workerd("portico.ts") },
  { runtime: "workerd", name: "Hono", command: workerd("hono.ts") },
  { runtime: "workerd", name: "Hono + requestId", command: workerd("hono-request-id.ts") },
];
