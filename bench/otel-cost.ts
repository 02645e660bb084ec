// What portico/otel costs a request, in process on Node (issue 44 §7): the benchmark app (bench/servers/
// bench-app.ts) without otel() ("off"), with otel() and only the API installed ("api": no SDK registered,
// the API's no-op tracer and meter), and with the SDK registered ("sdk": a BasicTracerProvider with a
// BatchSpanProcessor whose exporter drops the batches, a MeterProvider with a reader, an
// AsyncLocalStorage context manager, the W3C propagator: what a deployed app sets up). Each sample runs in
// a fresh process of its variant through the Node adapter with real IncomingMessage/ServerResponse (as
// `npm run bench:ab` does); "off" and a variant alternate, and each pair gives a ratio of CPU per request.
//
// A third variant, "context", is the app made with createApp({ asyncContext: true }) (no otel()).
//
//   npx tsx bench/otel-cost.ts [--pairs=15] [--n=20000] [--only=S1,S4] [--variants=api,sdk,context]
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import type { Scenario } from "./ab-drive.ts";
import { root } from "./contestants.ts";
import { busyMark, othersShare } from "./others.ts";
import { bootstrapInterval, median } from "./stats.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const PAIRS = option("pairs", 15);
const N = option("n", 20_000);
const OTHERS_MAX = option("others-max", 0.15);
const VARIANTS = args
  .find((arg) => arg.startsWith("--variants="))
  ?.slice(11)
  .split(",") ?? ["api", "sdk", "context"];
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice(7)
  .split(",");

// Each variant's app: `app` as bench/servers/portico-app.ts makes it, then what the variant adds.
const PORTICO_APP = `import { app } from "./servers/portico-app.ts";`;
const SETUP: Record<string, string> = {
  off: "",
  // Not otel(): the app made with createApp({ asyncContext: true }) (currentContext(), issue 44 §6).
  context: [
    `import * as middleware from "../src/middleware/mod.ts";`,
    `import * as portico from "../src/mod.ts";`,
    `import { benchApp } from "./servers/bench-app.ts";`,
    `const app = benchApp(portico, middleware, { asyncContext: true });`,
  ].join("\n"),
  api: `import { otel } from "../src/otel/otel.ts"; app.use(otel());`,
  sdk: [
    `import { otel } from "../src/otel/otel.ts";`,
    `import { context, metrics, propagation, trace } from "@opentelemetry/api";`,
    `import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";`,
    `import { W3CTraceContextPropagator } from "@opentelemetry/core";`,
    `import { InMemoryMetricExporter, AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";`,
    `import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";`,
    `const dropped = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };`,
    `trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropped)] }));`,
    `metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 1000 })] }));`,
    `propagation.setGlobalPropagator(new W3CTraceContextPropagator());`,
    `context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());`,
    `app.use(otel());`,
  ].join("\n"),
};

const SCENARIOS: Scenario[] = [
  { id: "S1", method: "GET", url: "/", body: "", status: 200 },
  { id: "S2", method: "GET", url: "/users/12345", body: "", status: 200 },
  { id: "S4", method: "POST", url: "/users", body: '{"user":{"name":"x","email":"y"}}', status: 201 },
].filter((scenario) => only === undefined || only.includes(scenario.id));

const work = join(root, "bench", ".work");
mkdirSync(work, { recursive: true });
const files: Record<string, string> = {};
for (const [variant, setup] of Object.entries(SETUP)) {
  const outfile = join(work, `otel-${variant}.mjs`);
  await build({
    stdin: {
      contents: [
        variant === "context" ? "" : PORTICO_APP,
        `import { toNodeHandler } from "../src/adapters/node-handler.ts";`,
        `import { runSample } from "./ab-drive.ts";`,
        setup,
        `await runSample(toNodeHandler(app));`,
      ].join("\n"),
      resolveDir: join(root, "bench"),
      loader: "ts",
    },
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
  files[variant] = outfile;
}

function sample(variant: string, scenario: Scenario): Promise<number> {
  return new Promise((resolve, reject) =>
    execFile(
      "taskset",
      ["-c", "0", process.execPath, files[variant]!],
      { env: { ...process.env, AB_SAMPLE: JSON.stringify({ scenario, n: N, pure: false }) } },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(Number(stdout)),
    ),
  );
}

console.log(
  `otel() cost, Node ${process.version}: ${PAIRS} pairs of ${N} requests (real http objects), ratio to "off"`,
);
console.log("| scenario | variant | µs/req | off µs/req | ÷ off (median [95 %]) | invalid pairs |");
console.log("|---|---|---:|---:|---:|---:|");
for (const scenario of SCENARIOS) {
  for (const variant of VARIANTS) {
    const ratios: number[] = [];
    const mine: number[] = [];
    const offs: number[] = [];
    let invalid = 0;
    for (let pair = 0; ratios.length < PAIRS && pair < PAIRS * 3; pair++) {
      const before = busyMark();
      const order = pair % 2 === 0 ? [variant, "off"] : ["off", variant];
      const measured: Record<string, number> = {};
      for (const side of order) measured[side] = await sample(side, scenario);
      if (othersShare(before) > OTHERS_MAX) {
        invalid++;
        continue;
      }
      mine.push(measured[variant]!);
      offs.push(measured.off!);
      ratios.push(measured[variant]! / measured.off!);
    }
    const [low, high] = ratios.length >= PAIRS ? bootstrapInterval(ratios) : [Number.NaN, Number.NaN];
    const figure =
      ratios.length >= PAIRS
        ? `${median(ratios).toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}]`
        : `unreadable (${ratios.length} valid)`;
    console.log(
      `| ${scenario.id} | ${variant} | ${median(mine).toFixed(2)} | ${median(offs).toFixed(2)} | ${figure} | ${invalid} |`,
    );
  }
}
