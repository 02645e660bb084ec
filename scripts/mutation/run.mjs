// Running the mutants: each is written into a copy of the tree (one copy a parallel job) and the unit
// test files that execute its line are run, the most likely killer first, until one fails.

import * as fs from "node:fs";
import * as path from "node:path";
import { applyMutant } from "./mutants.mjs";
import { copies, isInterrupted, runTestFile, runTestFiles } from "./processes.mjs";

const SOLO = 3; // test files run one by one before the rest are run together

/**
 * Runs every mutant of `queue`, setting its status ("killed", "timeout", "survived" or "no-coverage"),
 * killedBy and tests (how many test files cover it). `coverage` is coverageMap's; `usable(test)` says
 * whether a test file is used; `started` (Date.now()) is for the progress lines.
 */
export async function runMutants(queue, { byModule, coverage, usable, started }) {
  // The test files running a mutant's lines, the best killer (in this file, so far) first.
  const kills = new Map(); // `${file}|${test}` → count
  const testsFor = (m) => {
    const byTest = coverage.lines[m.file];
    const tests = Object.keys(byTest).filter(
      (t) => usable(t) && byTest[t].some((l) => l >= m.line && l <= m.endLine),
    );
    // Before any kill, the files that run most of this file (its own tests) come first.
    const score = (t) => kills.get(`${m.file}|${t}`) ?? 0;
    return tests.sort(
      (a, b) =>
        score(b) - score(a) ||
        byTest[b].length - byTest[a].length ||
        coverage.tests[a].ms - coverage.tests[b].ms,
    );
  };
  let next = 0;
  let done = 0;
  await Promise.all(
    copies.map(async (copy) => {
      while (next < queue.length && !isInterrupted()) {
        const m = queue[next++];
        const target = path.join(copy, m.file);
        const original = byModule.find((f) => f.file === m.file).text;
        const tests = testsFor(m);
        m.tests = tests.length;
        if (tests.length === 0) m.status = "no-coverage";
        else {
          fs.writeFileSync(target, applyMutant(original, m));
          try {
            m.status = "survived";
            // The best killers so far one by one; the rest (if any) in one process, then one by one
            // only if that fails (to name the killer and never count a clash of test files as a kill).
            const solo = tests.slice(0, SOLO);
            const rest = tests.slice(SOLO);
            const attempt = async (t) => {
              const base = coverage.tests[t].ms;
              let r = await runTestFile(copy, t, Math.max(3 * base, base + 4000));
              // A timeout on a busy machine is not yet a kill: once more with 10x the time.
              if (r.timedOut) r = await runTestFile(copy, t, 10 * base + 10_000);
              if (!r.timedOut && r.code === 0) return false;
              m.status = r.timedOut ? "timeout" : "killed";
              m.killedBy = t;
              kills.set(`${m.file}|${t}`, (kills.get(`${m.file}|${t}`) ?? 0) + 1);
              return true;
            };
            let killed = false;
            for (const t of solo) {
              killed = await attempt(t);
              if (killed) break;
            }
            if (!killed && rest.length > 0) {
              const base = rest.reduce((sum, t) => sum + coverage.tests[t].ms, 0);
              const r = await runTestFiles(copy, rest, 3 * base + 10_000);
              if (r.timedOut || r.code !== 0) for (const t of rest) if (await attempt(t)) break;
            }
          } finally {
            fs.writeFileSync(target, original); // always put the file back
          }
        }
        done++;
        if (done % 25 === 0 || done === queue.length)
          console.log(`  ${done}/${queue.length} (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    }),
  );
}
