#!/usr/bin/env node
// Mutation testing of the security-critical modules (`npm run test:mutation`).
//
// For each module in MODULES, every file is parsed with the TypeScript compiler API and mutants are
// made with a few standard operators (below). Each mutant is written into a private copy of the tree
// (never into this one: a crash or ^C cannot leave a mutant behind) and only the unit test files that
// execute the mutated line are run, one at a time, the most likely killer first, until one fails.
// Which test files execute which lines comes from one V8 coverage run of every unit test file
// (mapped back to the TypeScript source through tsx's source maps), cached in .tmp/mutation/.
//
// A mutant is killed when a test file fails (or times out: 3x its baseline time, at least +4 s, and
// then 10x on a second try),
// survives when every covering file passes, and has no coverage when no test file runs its line (a
// survivor too). Survivors judged equivalent (the program behaves the same) are listed with the reason
// in bench/mutation-equivalent.json, matched by file, line text and mutation (not by line number),
// and left out of the score: score = killed / (mutants - equivalent).
//
// Writes bench/MUTATION.md (scores, run time, machine) and bench/mutation-survivors.json.
//
//   node scripts/mutation.mjs                 every module, at most 100 mutants a module (a fixed sample)
//   node scripts/mutation.mjs --module csrf   one module (repeatable; comma-separated works too)
//   node scripts/mutation.mjs --quick         a fixed sample (1 mutant in 6 per module); report to .tmp/
//   node scripts/mutation.mjs --list          print the mutants, run nothing
//   node scripts/mutation.mjs --rerun         the last run again (same options), running only its survivors
//                                             (after new tests: what was killed stays killed)
//   node scripts/mutation.mjs --all           every mutant (no cap; about 2 h on two cores)
//   options: --jobs N (parallel copies, default 2), --slow (also use test files over 10 s),
//            --max-per-module N (a fixed sample of at most N; default 100), --fresh (redo the coverage run)
//
// A full run (no --quick/--module/--max-per-module) writes bench/; any other run writes .tmp/mutation/.
//
// The parts, in scripts/mutation/: mutants.mjs (the operators), processes.mjs (test runs, the copies of the
// tree, ^C), coverage.mjs (which test files run which lines), run.mjs (running the mutants), report.mjs.

import * as fs from "node:fs";
import * as path from "node:path";
import { CACHE_DIR, ROOT } from "./mutation/config.mjs";
import { coverageMap } from "./mutation/coverage.mjs";
import { mutantsOf, sampleKey } from "./mutation/mutants.mjs";
import { cleanUpOnSignals, copies, makeCopy, removeCopies } from "./mutation/processes.mjs";
import { markEquivalents, report } from "./mutation/report.mjs";
import { runMutants } from "./mutation/run.mjs";

// The modules in scope, by name, and their files.
const MODULES = {
  auth: ["src/middleware/auth.ts"],
  jwt: ["src/middleware/jwt.ts", "src/middleware/jwt-keys.ts"],
  csrf: ["src/middleware/csrf.ts"],
  cors: ["src/middleware/cors.ts"],
  session: ["src/session/session.ts", "src/session/seal.ts"],
  cookie: [
    "src/cookie/cookie.ts",
    "src/cookie/serialize.ts",
    "src/cookie/signed.ts",
    "src/http/cookie-header.ts",
  ],
  static: ["src/static/file-path.ts", "src/static/locate.ts"],
  "request-target": ["src/http/request-target.ts", "src/http/origin-form.ts"],
  ip: ["src/http/ip.ts"],
  body: ["src/params/read-body.ts", "src/params/multipart.ts", "src/middleware/body-limit.ts"],
  scalars: ["src/schema/scalars.ts"],
  client: ["src/client/client.ts", "src/client/encode.ts"],
  "pubsub-counters": [
    "src/pubsub/sequencer.ts",
    "src/pubsub/outbox.ts",
    "src/pubsub/resend.ts",
    "src/pubsub/backplane.ts",
  ],
};

// ---------------------------------------------------------------------------------------------- options

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const values = (name) =>
  args.flatMap((arg, i) => (arg === name && args[i + 1] !== undefined ? args[i + 1].split(",") : []));
const QUICK = flag("--quick");
const LIST = flag("--list");
const SLOW = flag("--slow");
const FRESH = flag("--fresh");
const RERUN = flag("--rerun");
const LAST_RUN = path.join(CACHE_DIR, "last-run.json");
const keyOf = (m) => `${m.file}|${m.line}|${m.col}|${m.code}|${m.original}|${m.replacement}`;
const JOBS = Number(values("--jobs")[0] ?? 2);
const ALL = flag("--all");
// A full run samples at most this many mutants a module (the same ones every run), to stay near 30 min
// on two cores; --all runs every mutant.
const DEFAULT_CAP = 100;
const MAX_PER_MODULE = Number(
  values("--max-per-module")[0] ?? (ALL || QUICK ? Number.POSITIVE_INFINITY : DEFAULT_CAP),
);
const SLOW_MS = 12_000; // baseline under coverage, two at a time
const selected = values("--module");
for (const name of selected)
  if (!(name in MODULES)) {
    console.error(`Unknown module ${name}; one of: ${Object.keys(MODULES).join(", ")}`);
    process.exit(2);
  }
const modules = selected.length > 0 ? selected : Object.keys(MODULES);
const PARTIAL = QUICK || selected.length > 0 || values("--max-per-module").length > 0;

cleanUpOnSignals();

// ---------------------------------------------------------------------------------------------- run

async function main() {
  const started = Date.now();
  const byModule = [];
  for (const name of modules)
    for (const file of MODULES[name]) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      let mutants = mutantsOf(file, text);
      const total = mutants.length;
      if (QUICK) mutants = mutants.filter((m) => sampleKey(m) % 6 === 0);
      byModule.push({ name, file, text, mutants, generated: total });
    }
  if (Number.isFinite(MAX_PER_MODULE))
    for (const name of modules) {
      const ofModule = byModule.filter((f) => f.name === name);
      const all = ofModule.flatMap((f) => f.mutants).sort((a, b) => sampleKey(a) - sampleKey(b));
      const kept = new Set(all.slice(0, MAX_PER_MODULE));
      for (const f of ofModule) f.mutants = f.mutants.filter((m) => kept.has(m));
    }
  const all = byModule.flatMap((f) => f.mutants.map((m) => Object.assign(m, { module: f.name })));
  if (LIST) {
    for (const m of all)
      console.log(`${m.file}:${m.line}:${m.col} ${m.operator} ${m.original} → ${m.replacement}`);
    console.log(`${all.length} mutants`);
    return;
  }
  for (let i = 0; i < Math.max(1, JOBS); i++) makeCopy(i);
  const coverage = await coverageMap(
    byModule.map((f) => f.file),
    { fresh: FRESH, jobs: JOBS },
  );
  const usable = (t) => coverage.tests[t]?.ok && (SLOW || coverage.tests[t].ms <= SLOW_MS);
  const left = Object.keys(coverage.tests).filter((t) => coverage.tests[t].ok && !usable(t));
  if (left.length > 0)
    console.log(`Test files over ${SLOW_MS / 1000} s left out (use --slow): ${left.join(", ")}`);

  let previous;
  if (RERUN) {
    previous = JSON.parse(fs.readFileSync(LAST_RUN, "utf8"));
    const before = new Map(previous.mutants.map((m) => [m.key, m]));
    for (const m of all) {
      const b = before.get(keyOf(m));
      if (b && (b.status === "killed" || b.status === "timeout"))
        Object.assign(m, { status: b.status, killedBy: b.killedBy, tests: b.tests });
    }
    console.log(
      `--rerun: ${all.filter((m) => m.status === undefined).length} survivors of the last run run again.`,
    );
  }
  const queue = all.filter((m) => m.status === undefined);
  console.log(
    `${queue.length} mutants to run in ${byModule.length} files; ${copies.length} copies of the tree.`,
  );
  await runMutants(queue, { byModule, coverage, usable, started });
  removeCopies();

  markEquivalents(all);
  const seconds = (Date.now() - started) / 1000;
  if (!RERUN) {
    fs.mkdirSync(path.dirname(LAST_RUN), { recursive: true });
    const mutants = all.map(({ start, end, ...m }) => ({ ...m, key: keyOf(m) }));
    fs.writeFileSync(LAST_RUN, JSON.stringify({ seconds, mutants }));
  }
  report(all, byModule, seconds, previous?.seconds, {
    modules,
    selected,
    quick: QUICK,
    partial: PARTIAL,
    maxPerModule: MAX_PER_MODULE,
    jobs: JOBS,
    slow: SLOW,
    slowMs: SLOW_MS,
  });
}

await main().catch((error) => {
  removeCopies();
  console.error(error);
  process.exit(1);
});
