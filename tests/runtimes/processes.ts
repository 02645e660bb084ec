// Starting servers in other processes (and on workerd) for the runtime suite and the benchmark.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository's root. */
export const root: string = join(here, "..", "..");

/** A server in another process. */
export interface StartedProcess {
  readonly origin: string;
  readonly pid: number;
  /** Resolves with the exit code once the process has ended, however it ended. */
  readonly exited: Promise<number | null>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT = 30_000;

/** Starts a process and waits for the URL it prints (`READY <url>`, or Deno's `Listening on <url>`). */
export function startProcess(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  cwd: string = root,
): Promise<StartedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: "pipe",
    });
    const exited = new Promise<number | null>((settle) => child.once("exit", (code) => settle(code)));
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} did not start within ${STARTUP_TIMEOUT} ms:\n${output}`));
    }, STARTUP_TIMEOUT);
    let ready = false;
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready) return;
      const match = /(?:READY|[Ll]istening on) (https?:\/\/[^\s/]+)/.exec(output);
      if (!match) return;
      ready = true;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.stdout.on("data", (more: Buffer) => {
        if (output.length < 1_000_000) output += more.toString();
      });
      resolve({
        origin: match[1]!.replace("localhost", "127.0.0.1"),
        pid: child.pid!,
        exited,
        output: () => output,
        stop: () => stopProcess(child),
      });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => {
      if (output.length < 1_000_000) output += chunk.toString();
      if (!ready) onData(Buffer.alloc(0));
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
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

// The part of Miniflare used here (it is installed with the runtimes, outside the type-checked tree).
type MiniflareClass = new (options: {
  modules: boolean;
  script: string;
  compatibilityDate: string;
  compatibilityFlags?: string[];
  host: string;
  port: number;
  durableObjects?: Record<string, string>;
  assets?: object;
}) => { readonly ready: Promise<URL>; dispose(): Promise<void> };

/** A module Worker served by Miniflare (workerd). */
export interface StartedWorker {
  readonly origin: string;
  stop(): Promise<void>;
}

/** How a module Worker is bundled for workerd (esbuild options): here, and by bench/servers/workerd. */
export const WORKER_BUNDLE = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  mainFields: ["module", "main"],
  conditions: ["workerd", "worker", "browser"],
} as const;

/** Bundles a module Worker (`export default app`) with esbuild and serves it with Miniflare. */
export async function startWorker(
  entry: string,
  port = 0,
  durableObjects?: Record<string, string>,
  assets?: { readonly directory: string; readonly binding: string },
  compatibilityFlags: readonly string[] = [],
): Promise<StartedWorker> {
  const { build } = await import("esbuild");
  const testsDir = join(root, "tests");
  const bundle = await build({
    plugins: [
      {
        // The conformance topics keep their routes beside their cases, whose node:assert, node:http
        // and ws the Worker never runs: those are stubbed, for test files only (a Node import in
        // Portico itself would still fail the bundle).
        name: "stub-test-only-modules",
        setup(builder) {
          builder.onResolve({ filter: /^(node:.*|ws)$/ }, (args) =>
            args.importer.startsWith(testsDir) ? { path: args.path, namespace: "test-stub" } : undefined,
          );
          builder.onLoad({ filter: /.*/, namespace: "test-stub" }, () => ({
            contents: "module.exports = {};",
            loader: "js",
          }));
        },
      },
      {
        // The OpenTelemetry SDK the telemetry topic sets up (the app's, not Portico's) keeps its Node code
        // under `platform/`, and maps it to web code in its package.json `browser` field, which a
        // platform-neutral build does not apply: done here, as an app's web-worker build would.
        name: "opentelemetry-web-platform",
        setup(builder) {
          builder.onResolve({ filter: /^(\.\.?\/)+platform(\/index\.js)?$/ }, (args) =>
            args.importer.includes("/node_modules/@opentelemetry/")
              ? {
                  path: join(
                    dirname(args.importer),
                    args.path.replace(/\/index\.js$/, ""),
                    "browser",
                    "index.js",
                  ),
                }
              : undefined,
          );
        },
      },
    ],
    ...WORKER_BUNDLE,
    mainFields: [...WORKER_BUNDLE.mainFields],
    conditions: [...WORKER_BUNDLE.conditions],
    entryPoints: [entry],
    write: false,
    logLevel: "silent",
  });
  const require = createRequire(join(root, ".runtimes", "package.json"));
  const { Miniflare } = (await import(require.resolve("miniflare"))) as { Miniflare: MiniflareClass };
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]!.text,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: [...compatibilityFlags],
    host: "127.0.0.1",
    port,
    ...(durableObjects ? { durableObjects } : {}),
    ...(assets
      ? {
          assets: {
            ...assets,
            routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
          },
        }
      : {}),
  });
  let url: URL;
  try {
    url = await mf.ready;
  } catch (error) {
    // A Worker that fails as it loads: its runtime is let go, or it would keep the test process alive.
    await mf.dispose().catch(() => {});
    throw error;
  }
  return { origin: url.origin, stop: () => mf.dispose() };
}
