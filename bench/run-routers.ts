// Runs the router micro-benchmark on Node (compiled, as deployed), Bun and Deno, and writes the
// "Router" section of RESULTS.md (or RESULTS-quick.md with --quick).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { build } from "esbuild";
import { root } from "./contestants.ts";
import { writeSection } from "./report.ts";

interface RouterResult {
  router: string;
  request: string;
  kind: string;
  ns: number;
}

const bundle = join(root, "bench", ".work", "router-node.mjs");
await build({
  entryPoints: [join(root, "bench", "router.ts")],
  outfile: bundle,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["bun:jsc"],
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: "warning",
});

const commands: [string, string[]][] = [
  ["taskset", ["-c", "0", process.execPath, bundle]],
  [
    "taskset",
    ["-c", "0", join(root, ".runtimes/node_modules/.bin/bun"), "run", join(root, "bench/router.ts")],
  ],
  ["taskset", ["-c", "0", join(root, "node_modules/.bin/deno"), "run", "-A", join(root, "bench/router.ts")]],
];

const sections: string[] = ["## Router micro-benchmark (ns per match, mitata)", ""];
sections.push(
  "Hono's router benchmark routes and requests; every router gets the same 12 routes. Portico's matcher is the",
  "route table its apps use. The last rows are routes only a full `URLPattern` can match.",
  "",
);
const targetRows: string[] = [];
for (const [command, args] of commands) {
  const out = execFileSync(command, args, { encoding: "utf8", maxBuffer: 1 << 24 });
  const line = out
    .trim()
    .split("\n")
    .findLast((l) => l.startsWith("{"))!;
  const { runtime, results } = JSON.parse(line) as { runtime: string; results: RouterResult[] };
  const routers = [...new Set(results.map((r) => r.router))];
  const requests = [...new Set(results.map((r) => r.request))];
  sections.push(
    `### ${runtime}`,
    "",
    `| request | ${routers.join(" | ")} |`,
    `|---|${routers.map(() => "---:").join("|")}|`,
  );
  for (const request of requests) {
    const cells = routers.map((router) => {
      const found = results.find((r) => r.router === router && r.request === request);
      return found ? found.ns.toFixed(0) : "";
    });
    sections.push(`| ${request} | ${cells.join(" | ")} |`);
  }
  sections.push("");
  const ns = (router: string, kind: string) => {
    const rows = results.filter((r) => r.router === router && r.kind === kind);
    return rows.reduce((sum, r) => sum + r.ns, 0) / rows.length;
  };
  const hono = { static: ns("Hono RegExpRouter", "static"), dynamic: ns("Hono RegExpRouter", "dynamic") };
  const portico = {
    static: ns("Portico", "static"),
    dynamic: ns("Portico", "dynamic"),
    full: ns("Portico", "full"),
  };
  targetRows.push(
    `| ${runtime}: static ≤ RegExpRouter | ${(portico.static / hono.static).toFixed(2)}× | ${portico.static <= hono.static ? "yes" : "**no**"} |`,
    `| ${runtime}: dynamic ≤ 1.2× RegExpRouter | ${(portico.dynamic / hono.dynamic).toFixed(2)}× | ${portico.dynamic <= 1.2 * hono.dynamic ? "yes" : "**no**"} |`,
    `| ${runtime}: full URLPattern syntax ≤ 2× RegExpRouter dynamic | ${(portico.full / hono.dynamic).toFixed(2)}× | ${portico.full <= 2 * hono.dynamic ? "yes" : "**no**"} |`,
  );
}
sections.push(
  "### Router targets (mean ns of the request group, Portico ÷ RegExpRouter)",
  "",
  "| target | measured | met |",
  "|---|---:|:---:|",
  ...targetRows,
  "",
);

const file = join(root, "bench", process.argv.includes("--quick") ? "RESULTS-quick.md" : "RESULTS.md");
writeSection(file, "router", sections);
console.log(`Wrote the router section of ${file}`);
