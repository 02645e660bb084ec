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
}

/** A diagnostic at the documentation's own line. */
export interface SampleError {
  readonly where: string;
  readonly message: string;
}

/** The ```ts blocks of a Markdown file, with the line each starts on. */
export function samplesOf(file: string, text: string): Sample[] {
  const samples: Sample[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    samples.push({ source: file, line: start + 1, code: lines.slice(start, end).join("\n") });
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
