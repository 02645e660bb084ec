// Which unit test files execute which lines: one V8 coverage run of every unit test file, mapped back
// to the TypeScript source through tsx's source maps, cached in .tmp/mutation/ (keyed by a hash of
// src/, tests/ and examples/).

import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { CACHE_DIR, ROOT } from "./config.mjs";
import { copies, isInterrupted, runTestFile } from "./processes.mjs";

function unitTestFiles() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (
          ![
            "tests/runtimes",
            "tests/services",
            "tests/browser",
            "tests/docs",
            "tests/package/consumer",
          ].includes(rel)
        )
          walk(rel);
      } else if (e.name.endsWith(".test.ts")) out.push(rel);
    }
  };
  walk("tests");
  return out.sort();
}

const B64 = new Map(
  [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]),
);
function vlq(segment) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = B64.get(c);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

// The source lines (1-based) of a file that ran: V8 block counts of the generated code, through its map.
function coveredLines(entry, map) {
  const starts = [0];
  for (const len of map.lineLengths) starts.push(starts[starts.length - 1] + len + 1);
  const ranges = entry.functions.flatMap((f) => f.ranges);
  const lines = new Set();
  let genLine = 0;
  let srcLine = 0;
  for (const line of map.data.mappings.split(";")) {
    let genCol = 0;
    if (line !== "")
      for (const segment of line.split(",")) {
        const v = vlq(segment);
        genCol += v[0];
        if (v.length < 4) continue;
        srcLine += v[2];
        const offset = starts[genLine] + genCol;
        let best;
        for (const r of ranges)
          if (
            r.startOffset <= offset &&
            offset < r.endOffset &&
            (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset)
          )
            best = r;
        if (best && best.count > 0) lines.add(srcLine + 1);
      }
    genLine++;
  }
  return lines;
}

function treeHash() {
  const hash = createHash("sha1");
  const walk = (dir) => {
    for (const e of fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (/\.(ts|mjs|js|json)$/.test(e.name))
        hash.update(rel).update(fs.readFileSync(path.join(ROOT, rel)));
    }
  };
  for (const dir of ["src", "tests", "examples"]) if (fs.existsSync(path.join(ROOT, dir))) walk(dir);
  return hash.digest("hex");
}

/**
 * { tests: { file: { ms, ok } }, lines: { srcFile: { testFile: [lines] } } } for every in-scope file, from the cache
 * when src/, tests/ and examples/ are unchanged (and not `fresh`); the runs use the copies.
 */
export async function coverageMap(inScope, { fresh, jobs }) {
  const cacheFile = path.join(CACHE_DIR, "coverage.json");
  const hash = treeHash();
  if (!fresh && fs.existsSync(cacheFile)) {
    const cached = JSON.parse(fs.readFileSync(cacheFile, "utf8"));
    if (cached.hash === hash && inScope.every((f) => f in cached.lines)) return cached;
  }
  const files = unitTestFiles();
  console.log(`Coverage run: ${files.length} unit test files, ${jobs} at a time…`);
  const result = { hash, tests: {}, lines: Object.fromEntries(inScope.map((f) => [f, {}])) };
  let next = 0;
  await Promise.all(
    copies.map(async (copy) => {
      while (next < files.length && !isInterrupted()) {
        const testFile = files[next++];
        const covDir = fs.mkdtempSync(path.join(os.tmpdir(), "portico-mutation-cov-"));
        const r = await runTestFile(copy, testFile, 180_000, { NODE_V8_COVERAGE: covDir });
        const ok = r.code === 0 && !r.timedOut;
        result.tests[testFile] = { ms: Math.round(r.ms), ok };
        if (!ok) console.log(`  ${testFile} fails without mutants (left out)`);
        for (const name of fs.readdirSync(covDir)) {
          let json;
          try {
            json = JSON.parse(fs.readFileSync(path.join(covDir, name), "utf8"));
          } catch {
            continue;
          }
          const maps = json["source-map-cache"] ?? {};
          for (const entry of json.result) {
            if (!entry.url.startsWith("file://")) continue;
            const abs = fileURLToPath(entry.url);
            if (!abs.startsWith(copy + path.sep)) continue;
            const rel = path.relative(copy, abs).split(path.sep).join("/");
            if (!(rel in result.lines) || !maps[entry.url]) continue;
            const lines = coveredLines(entry, maps[entry.url]);
            if (lines.size === 0) continue;
            const prior = new Set(result.lines[rel][testFile] ?? []);
            for (const l of lines) prior.add(l);
            result.lines[rel][testFile] = [...prior].sort((a, b) => a - b);
          }
        }
        fs.rmSync(covDir, { recursive: true, force: true });
      }
    }),
  );
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(cacheFile, JSON.stringify(result));
  return result;
}
