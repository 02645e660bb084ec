// The TypeScript samples of the documentation, type-checked against the built package: each ```ts block
// of README.md becomes a module of its own under .tmp/doc-samples/ (inside the package, so that
// `import … from "portico"` resolves through package.json's exports to dist/, as an installed copy
// would), compiled with the TypeScript API. A sample may use names the surrounding prose introduced
// (`app`, a `GetUser` endpoint, valibot's `v`): PRELUDE declares them, and only for a sample that uses one
// without declaring it. Anything else that does not compile is an error at the README's line.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";

/** One sample: where it is and what it says. */
export interface Sample {
  readonly source: string;
  readonly line: number;
  readonly code: string;
  /** Marked ```ts run: also run (see `runSample`). */
  readonly run: boolean;
}

/** A diagnostic at the documentation's own line. */
export interface SampleError {
  readonly where: string;
  readonly message: string;
}

/** The ```ts (and ```ts run) blocks of a Markdown file, with the line each starts on. */
export function samplesOf(file: string, text: string): Sample[] {
  const samples: Sample[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts" && lines[i] !== "```ts run") continue;
    const run = lines[i] === "```ts run";
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    samples.push({ source: file, line: start + 1, code: lines.slice(start, end).join("\n"), run });
    i = end;
  }
  return samples;
}

const COMPILER: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  allowImportingTsExtensions: true,
};

/**
 * Type-checks the samples (with the prelude each needs, and the files they import written beside them);
 * returns what does not compile. A sample that augments a module (`declare module "portico"`) is
 * compiled apart: its augmentation would reach every other sample.
 */
export function checkSamples(
  root: string,
  samples: readonly Sample[],
  prelude: Readonly<Record<string, string>>,
  files: Readonly<Record<string, string>> = {},
): SampleError[] {
  const dir = join(root, ".tmp", "doc-samples");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const paths = samples.map((_, i) => join(dir, `sample-${String(i).padStart(3, "0")}.ts`));
  const augments = (i: number) => /^declare module /m.test(samples[i]!.code);
  const programs = [
    paths.filter((_, i) => !augments(i)),
    ...paths.filter((_, i) => augments(i)).map((path) => [path]),
  ];
  const check = () =>
    programs.flatMap((group) => ts.getPreEmitDiagnostics(ts.createProgram(group, COMPILER)));
  const added = samples.map(() => [] as string[]);
  const write = (i: number) => {
    const head = added[i]!.map((name) => prelude[name]!).join("\n");
    writeFileSync(paths[i]!, `${head}\n${samples[i]!.code}\nexport {};\n`);
  };
  for (let i = 0; i < samples.length; i++) write(i);
  let diagnostics: readonly ts.Diagnostic[] = [];
  // Names the prose introduced are added where a sample misses them, until nothing more can be added.
  for (let round = 0; round < 4; round++) {
    diagnostics = check();
    let grew = false;
    for (const diagnostic of diagnostics) {
      if (diagnostic.code !== 2304 && diagnostic.code !== 18004 && diagnostic.code !== 2552) continue;
      const name = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))?.[1];
      const i = paths.indexOf(diagnostic.file?.fileName ?? "");
      if (name === undefined || i < 0 || prelude[name] === undefined || added[i]!.includes(name)) continue;
      added[i]!.push(name);
      grew = true;
    }
    if (!grew) break;
    for (let i = 0; i < samples.length; i++) write(i);
  }
  return diagnostics.map((diagnostic) => {
    const i = paths.indexOf(diagnostic.file?.fileName ?? "");
    const sample = samples[i];
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (sample === undefined || diagnostic.file === undefined || diagnostic.start === undefined) {
      return { where: "(compiler)", message };
    }
    const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line;
    const preludeLines = added[i]!.map((name) => prelude[name]!)
      .join("\n")
      .split("\n").length;
    return { where: `${sample.source}:${sample.line + line - preludeLines}`, message };
  });
}

/** The samples of the documentation files, by path under the repository. */
export function documentationSamples(root: string, files: readonly string[]): Sample[] {
  return files.flatMap((file) => samplesOf(file, readFileSync(join(root, file), "utf8")));
}

/**
 * Runs a sample marked ```ts run, as written (its `port: 3000` made `port: 0`, so that runs do not
 * collide), with tsx on Node: one that uses `node:test` runs as a test file and must pass; another must
 * exit 0, or print a URL (a server), which is then fetched and must answer 2xx before the process is
 * stopped. Resolves with what went wrong, or `undefined`.
 */
export async function runSample(
  root: string,
  sample: Sample,
  prelude: Readonly<Record<string, string>>,
  index: number,
): Promise<string | undefined> {
  const { spawn } = await import("node:child_process");
  const dir = join(root, ".tmp", "doc-samples");
  const file = join(dir, `run-${String(index).padStart(3, "0")}.ts`);
  const used = Object.keys(prelude).filter((name) => new RegExp(`\\b${name}\\b`).test(sample.code));
  const declared = (name: string) =>
    new RegExp(`(?:import[^;]*\\b${name}\\b|(?:const|let|function|class|type) ${name}\\b)`).test(sample.code);
  const head = used
    .filter((name) => !declared(name) && !prelude[name]!.startsWith("declare"))
    .map((name) => prelude[name]);
  writeFileSync(file, `${head.join("\n")}\n${sample.code.replace(/port: 3000\b/g, "port: 0")}\nexport {};\n`);
  const asTest = sample.code.includes('from "node:test"');
  const args = ["--import", "tsx", ...(asTest ? ["--test", "--test-reporter=dot"] : []), file];
  // Not NODE_TEST_CONTEXT: a test file run under this test would report to it, and exit 0 whatever failed.
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: "pipe",
    env: { ...env, NO_COLOR: "1" },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const where = `${sample.source}:${sample.line}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const url = /https?:\/\/[^\s]+/.exec(output)?.[0];
    if (url !== undefined && !asTest) {
      try {
        const response = await fetch(url);
        await response.arrayBuffer();
        return response.ok ? undefined : `${where}: ${url} answered ${response.status}`;
      } finally {
        child.kill("SIGTERM");
        await exited;
      }
    }
    if (child.exitCode !== null) {
      return child.exitCode === 0 ? undefined : `${where}: exited with ${child.exitCode}:\n${output}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  return `${where}: neither ended nor printed a URL within 60 s:\n${output}`;
}
