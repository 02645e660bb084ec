// A/B of two builds of Portico on Node, through the Node adapter: every byte of Portico's JavaScript
// (adapter, core, the app of bench/servers/portico-app.ts) and none of the kernel. Requests are real
// `http.IncomingMessage`s answered through real `http.ServerResponse`s on a socket that swallows what is
// written (or, with --pure, stand-ins: Portico's JavaScript alone). Each sample runs in a fresh process
// of its build (bench/ab-drive.ts: warm-up, then `n` requests); the two builds alternate (A B, B A, …)
// and each pair gives a ratio of CPU per request (process.cpuUsage, garbage collection included), so
// that what the noisy host does to one sample it does to its pair. Decides a change: the median ratio
// and its bootstrap 95 % interval; a change counts when the interval excludes 1.
//
//   npm run bench:ab -- <git-ref>            the working tree (A) against a commit (B)
//   npm run bench:ab -- <ref> --pairs=21 --n=4000 --only=S1,S4
//   npm run bench:ab -- <ref> --runtime=bun  on Bun (or deno): app.fetch in process (bench/ab-fetch-drive.ts)
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import type { Scenario } from "./ab-drive.ts";
import { root } from "./contestants.ts";
import { busyMark, othersShare } from "./others.ts";
import { bootstrapInterval, median } from "./stats.ts";

const args = process.argv.slice(2);
const ref = args.find((arg) => !arg.startsWith("--"));
const option = (name: string, fallback: number) =>
  Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const PAIRS = option("pairs", 15);
const N = option("n", 10_000);
// A pair measured while other processes used more than this share of one core (the machine's busy
// time from /proc/stat, less this process's own, over the pair's wall time) is invalid: repeated,
// never counted. The 1-minute load average is printed too, but it counts this process's own GC and
// helper threads, and lags by a minute.
const OTHERS_MAX = option("others-max", 0.15);
const PURE = args.includes("--pure");
const RUNTIME = args.find((arg) => arg.startsWith("--runtime="))?.slice(10) ?? "node";
if (!["node", "bun", "deno"].includes(RUNTIME))
  throw new Error(`--runtime: node, bun or deno, not ${RUNTIME}`);
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice(7)
  .split(",");
if (ref === undefined)
  throw new Error(
    "usage: npm run bench:ab -- <git-ref> [--pairs=15] [--n=10000] [--only=S1,S4] [--load-max=1.5]",
  );

interface Build {
  readonly label: string;
  readonly file: string;
  /** The build's `src/` (what a Bun or Deno sample imports). */
  readonly source: string;
}

const work = join(root, "bench", ".work");
mkdirSync(work, { recursive: true });
const sha = execFileSync("git", ["rev-parse", "--short", ref], { cwd: root, encoding: "utf8" }).trim();
const a = await bundle("A", join(root, "src"), "working tree");
const other = join(work, `ab-src-${sha}`);
if (!existsSync(join(other, "src"))) {
  rmSync(other, { recursive: true, force: true });
  mkdirSync(other, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${sha} src | tar -x -C ${other}`], { cwd: root });
}
const b = await bundle("B", join(other, "src"), sha);

// Both builds answer the app's routes with the same bytes as the wire, `X-Request-Id` aside.
const SCENARIOS: Scenario[] = [
  { id: "S1", method: "GET", url: "/", body: "", status: 200 },
  { id: "S2", method: "GET", url: "/users/12345", body: "", status: 200 },
  { id: "S3", method: "GET", url: "/search?offset=10&limit=20", body: "", status: 200 },
  { id: "S4", method: "POST", url: "/users", body: '{"user":{"name":"x","email":"y"}}', status: 201 },
  { id: "S5", method: "GET", url: "/s5/items/7", body: "", status: 404 },
].filter((scenario) => only === undefined || only.includes(scenario.id));

console.log(
  `A = ${a.label}, B = ${b.label}; ${PAIRS} pairs of ${N} requests; ${RUNTIME === "node" ? `Node ${process.version}` : `${RUNTIME}, app.fetch in process`}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
console.log("scenario   A µs/req   B µs/req   A/B median   95 % interval   verdict");
for (const scenario of SCENARIOS) {
  for (const side of [a, b]) {
    const answer = JSON.parse(await inChild(side, { scenario, n: 1, pure: PURE, check: true })) as string;
    if (!answer.startsWith(`HTTP/1.1 ${scenario.status} `))
      throw new Error(`${side.label} ${scenario.id}: ${answer.slice(0, 200)}`);
  }
  const ratios: number[] = [];
  const times: Record<string, number[]> = { A: [], B: [] };
  let invalid = 0;
  for (let pair = 0; ratios.length < PAIRS && pair < PAIRS * 3; pair++) {
    const order = pair % 2 === 0 ? [a, b] : [b, a];
    const measured: Record<string, number> = {};
    const before = busyMark();
    for (const side of order)
      measured[side === a ? "A" : "B"] = Number(await inChild(side, { scenario, n: N, pure: PURE }));
    if (othersShare(before) > OTHERS_MAX) {
      invalid++;
      continue;
    }
    times.A!.push(measured.A!);
    times.B!.push(measured.B!);
    ratios.push(measured.A! / measured.B!);
  }
  const row = `${scenario.id.padEnd(9)} ${median(times.A!).toFixed(2).padStart(9)} ${median(times.B!).toFixed(2).padStart(10)}`;
  if (ratios.length < PAIRS) {
    console.log(
      `${row}   unreadable: ${invalid} pairs with others over ${OTHERS_MAX} of a core, ${ratios.length} valid`,
    );
    continue;
  }
  const [low, high] = bootstrapInterval(ratios);
  const verdict = high < 1 ? "A faster" : low > 1 ? "A slower" : "no change shown";
  console.log(
    `${row} ${median(ratios).toFixed(3).padStart(12)}   [${low.toFixed(3)}, ${high.toFixed(3)}]   ${verdict} (${invalid} invalid pairs repeated)`,
  );
}
process.exit(0);

// One sample (or a check) in a fresh process of the build; what it printed.
function inChild(side: Build, asked: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const drive = join(root, "bench", "ab-fetch-drive.ts");
    const [command, ...argv] =
      RUNTIME === "bun"
        ? [join(root, ".runtimes/node_modules/.bin/bun"), drive]
        : RUNTIME === "deno"
          ? [join(root, "node_modules/.bin/deno"), "run", "-A", "--config", join(root, "deno.json"), drive]
          : [process.execPath, side.file];
    execFile(
      command!,
      argv,
      {
        env: { ...process.env, AB_SAMPLE: JSON.stringify(asked), AB_SOURCE: side.source },
        maxBuffer: 1 << 20,
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${side.label}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

// One side's bundle: the bench app and the Node adapter, with `src/` taken from `source`.
async function bundle(label: string, source: string, description: string): Promise<Build> {
  const redirect: Plugin = {
    name: "source",
    setup(esbuild) {
      const here = `${join(root, "src")}/`;
      esbuild.onResolve({ filter: /.*/ }, (resolved) => {
        if (source === join(root, "src") || !resolved.path.startsWith(".")) return undefined;
        const path = join(resolved.resolveDir, resolved.path);
        return path.startsWith(here) ? { path: join(source, path.slice(here.length)) } : undefined;
      });
    },
  };
  const outfile = join(work, `ab-${label}.mjs`);
  await build({
    stdin: {
      contents: [
        `import { app } from "./servers/portico-app.ts";`,
        `import { toNodeHandler } from "../src/adapters/node-handler.ts";`,
        `import { runSample } from "./ab-drive.ts";`,
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
    plugins: [redirect],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  return { label: description, file: outfile, source };
}
