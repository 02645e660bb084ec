import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const bin = (name: string): string => join(here, "node_modules", ".bin", name);

/** A server the suite started, and how to stop it. */
export interface RunningTarget {
  readonly origin: string;
  /** False where the host strips hop-by-hop response headers (`Upgrade`). */
  readonly keepsHopByHopHeaders?: boolean;
  stop(): Promise<void>;
}

/** One runtime the conformance suite runs on. */
export interface Target {
  readonly name: string;
  start(): Promise<RunningTarget>;
}

const STARTUP_TIMEOUT = 30_000;

// Starts a process and waits for the URL it prints (`READY <url>`, or Deno's `Listening on <url>`).
function startProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunningTarget> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: "pipe",
    });
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} did not start within ${STARTUP_TIMEOUT} ms:\n${output}`));
    }, STARTUP_TIMEOUT);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /(?:READY|Listening on) (https?:\/\/[^\s/]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve({ origin: match[1]!.replace("localhost", "127.0.0.1"), stop: () => stopProcess(child) });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      onData(Buffer.alloc(0));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before it was ready:\n${output}`));
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

const entry = (name: string): string => join("tests", "runtimes", "entries", name);
const DENO_FLAGS = ["--allow-net", "--allow-env", "--allow-read"];

/** Node 24 from npm, running the TypeScript sources with its built-in type stripping. */
export const node24: Target = {
  name: "Node 24 (npm node@24)",
  start: () => startProcess(bin("node"), [entry("node.ts")]),
};

/** Deno from npm, with `Deno.serve(app.fetch)`. */
export const deno: Target = {
  name: "Deno (Deno.serve)",
  start: () =>
    startProcess(join(root, "node_modules", ".bin", "deno"), ["run", ...DENO_FLAGS, entry("deno.ts")]),
};

/** Deno from npm, with `deno serve` and `export default app`. */
export const denoServe: Target = {
  name: "Deno (deno serve)",
  start: () =>
    startProcess(join(root, "node_modules", ".bin", "deno"), [
      "serve",
      ...DENO_FLAGS,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      entry("deno-serve.ts"),
    ]),
};

/** Bun from npm, through `portico/bun`'s `serve`. */
export const bun: Target = {
  name: "Bun (portico/bun serve)",
  start: () => startProcess(bin("bun"), ["run", entry("bun.ts")]),
};

/** Bun from npm, with `Bun.serve(app)`. */
export const bunDefault: Target = {
  name: "Bun (Bun.serve(app))",
  start: () => startProcess(bin("bun"), ["run", entry("bun-default.ts")], { PORT: "0" }),
};

/** Deno from npm, through `portico/deno`'s `serve`. */
export const denoHelper: Target = {
  name: "Deno (portico/deno serve)",
  start: () =>
    startProcess(join(root, "node_modules", ".bin", "deno"), ["run", ...DENO_FLAGS, entry("deno-helper.ts")]),
};

/** workerd through Miniflare, with the app bundled as a module worker (`export default app`). */
export const workerd: Target = {
  name: "workerd (Miniflare)",
  async start() {
    const { build } = await import("esbuild");
    const bundle = await build({
      entryPoints: [join(root, entry("workers.ts"))],
      bundle: true,
      format: "esm",
      platform: "neutral",
      target: "es2022",
      mainFields: ["module", "main"],
      conditions: ["workerd", "worker", "browser"],
      write: false,
      logLevel: "silent",
    });
    const require = createRequire(join(here, "package.json"));
    const { Miniflare } = (await import(require.resolve("miniflare"))) as typeof import("miniflare");
    const mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      compatibilityDate: "2026-04-01",
      host: "127.0.0.1",
      port: 0,
    });
    const url = await mf.ready;
    return {
      origin: url.origin,
      keepsHopByHopHeaders: false,
      stop: () => mf.dispose(),
    };
  },
};
