// The test runs: spawning test files (each in its own process group, so a kill takes whatever it
// started), the private copies of the tree the mutants are written into, and the cleanup on ^C.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./config.mjs";

const children = new Set();
let interrupted = false;
/** True after ^C (or SIGTERM): the loops stop taking work. */
export const isInterrupted = () => interrupted;

function run(cmd, argv, { cwd, env, timeoutMs }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: "ignore", detached: true });
    children.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child);
    }, timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, signal, timedOut, ms: performance.now() - started });
    });
    child.on("error", () => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code: -1, signal: null, timedOut: false, ms: performance.now() - started });
    });
  });
}

function kill(child) {
  try {
    process.kill(-child.pid, "SIGKILL"); // the test file and whatever it started
  } catch {}
}

// The test file alone, in one process (node:test runs it and exits 1 on a failure), through tsx.
export const runTestFile = (copy, testFile, timeoutMs, env = {}) =>
  run(process.execPath, ["--import", "tsx", testFile], { cwd: copy, env, timeoutMs });
// Several test files in one process (one start instead of one a file).
const IMPORT_ALL =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code for `node -e`, not a template
  "for (const f of process.argv.slice(1)) await import(new URL(f, `file://${process.cwd()}/`).href);";
export const runTestFiles = (copy, testFiles, timeoutMs) =>
  run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", IMPORT_ALL, ...testFiles], {
    cwd: copy,
    timeoutMs,
  });

// ---------------------------------------------------------------------------------------------- copies

/** The private copies of the tree (their paths), one a parallel job. */
export const copies = [];
export function makeCopy(i) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-mutation-${i}-`));
  const skip = new Set([".git", "node_modules", ".tmp", "dist", "docs"].map((d) => path.join(ROOT, d)));
  for (const entry of fs.readdirSync(ROOT)) {
    const from = path.join(ROOT, entry);
    if (skip.has(from)) continue;
    fs.cpSync(from, path.join(dir, entry), {
      recursive: true,
      filter: (src) =>
        !src.includes(`${path.sep}bench${path.sep}.work`) && !src.endsWith(`${path.sep}node_modules`),
    });
  }
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, "node_modules")), path.join(dir, "node_modules"));
  copies.push(dir);
  return dir;
}

export function removeCopies() {
  for (const dir of copies.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

function onSignal(signal) {
  interrupted = true;
  for (const child of children) kill(child);
  removeCopies(); // the mutants only ever live in the copies
  console.error(`\n${signal}: stopped; this tree was never modified.`);
  process.exit(130);
}

/** On ^C or SIGTERM: kill the test runs and remove the copies (this tree is never modified). */
export function cleanUpOnSignals() {
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
