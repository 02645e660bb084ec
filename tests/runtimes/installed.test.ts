import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { serverClient, wsSession } from "../conformance/client.ts";
import { root, type StartedProcess, startProcess, startWorker } from "./processes.ts";
import { nodeBin } from "./targets.ts";

// Portico as users get it: `npm pack`, installed from the tarball into a fresh project outside the
// repository (dependencies from the local npm cache), then the same small app — a route, an endpoint
// with a declared error and a view, a websocket channel — served on every runtime the README names.

const run = promisify(execFile);
const consumer = join(root, "tests", "package", "consumer");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const deno = join(root, "node_modules", ".bin", "deno");
const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const DENO_FLAGS = ["--allow-net", "--allow-env", "--allow-read"];
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
  readonly files: readonly { readonly path: string }[];
}

let dir = "";
let packed: Packed;

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", args, { cwd, env: { ...process.env, npm_config_loglevel: "error" } });
  return stdout;
}

// What every target must answer, over real HTTP and a real websocket.
async function exercise(server: StartedProcess | { readonly origin: string }): Promise<void> {
  const client = serverClient(server.origin);
  const hello = await client.fetch("/hello");
  assert.equal(await hello.text(), "hello");
  const user = await client.fetch("/users/1", { headers: { accept: "application/json" } });
  assert.deepEqual(await user.json(), { id: 1, name: "Ada" });
  const missing = await client.fetch("/users/2", { headers: { accept: "text/plain" } });
  assert.equal(missing.status, 404);
  assert.equal(await missing.text(), "404 User Not Found — No such user");
  const invalid = await client.fetch("/users/abc", { headers: { accept: "text/plain" } });
  assert.equal(invalid.status, 400);
  const ws = await wsSession(server.origin, "/echo?prefix=%3E", { send: ["ping"], closeAfter: 1 });
  assert.deepEqual(ws.messages, [">ping"]);
}

// tsc reports its errors on stdout: show them when it fails.
async function typeCheck(config: string, cwd: string): Promise<void> {
  try {
    await run(process.execPath, [tsc, "-p", config], { cwd });
  } catch (error) {
    const { stdout = "" } = error as { stdout?: string };
    assert.fail(`tsc -p ${config} failed:\n${stdout}`);
  }
}

async function serveWith(command: string, args: string[], cwd = dir): Promise<void> {
  const server = await startProcess(command, args, {}, cwd);
  try {
    await exercise(server);
  } finally {
    await server.stop();
  }
}

describe("the npm package, installed from its tarball", { timeout: 240_000 }, () => {
  before(async () => {
    await run(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root });
    dir = mkdtempSync(join(tmpdir(), "portico-consumer-"));
    const json = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], root);
    packed = (JSON.parse(json) as Packed[])[0]!;
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "portico-consumer",
        private: true,
        type: "module",
        dependencies: { portico: `file:./${packed.filename}`, valibot: pkg.dependencies.valibot },
        devDependencies: { "@types/node": pkg.devDependencies["@types/node"] },
      }),
    );
    await npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
    cpSync(consumer, dir, { recursive: true });
    cpSync(join(consumer, "app.ts"), join(dir, "tsc", "app.ts"));
    writeFileSync(join(dir, "deno.json"), "{}\n");
  });
  after(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  test("the tarball holds the compiled package, its sources and docs, nothing else", (t) => {
    const top = new Set(packed.files.map((file) => file.path.split("/")[0]));
    assert.deepEqual([...top].sort(), [
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "dist",
      "package.json",
      "src",
    ]);
    for (const entry of Object.values(pkg.exports) as { types: string; default: string }[]) {
      for (const file of [entry.types, entry.default, `${entry.types}.map`]) {
        assert.ok(
          packed.files.some((f) => `./${f.path}` === file),
          `${file} is in the tarball`,
        );
      }
    }
    t.diagnostic(
      `tarball ${packed.filename}: ${(packed.size / 1024).toFixed(1)} KiB packed, ` +
        `${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${packed.entryCount} files`,
    );
  });

  test("Node 20: node app.mjs", async () => {
    await serveWith(process.execPath, ["app.mjs"]);
  });

  test("Node 20: require() of the ES module (Node >= 20.19)", async () => {
    const { stdout } = await run(process.execPath, ["require.cjs"], { cwd: dir });
    assert.match(stdout, /^REQUIRED \d+/);
  });

  test("Node 22: the user's own TypeScript, type-stripped", async () => {
    await serveWith(nodeBin(22), ["node-server.ts"]);
  });

  test("Node 24: the user's own TypeScript, type-stripped", async () => {
    await serveWith(nodeBin(24), ["node-server.ts"]);
  });

  test("a tsc --init project (@types/node, no DOM lib) type-checks, builds and runs", async () => {
    const project = join(dir, "tsc");
    await run(
      process.execPath,
      [tsc, "--init", "--types", "node", "--lib", "es2023", "--skipLibCheck", "false"],
      {
        cwd: project,
      },
    );
    await typeCheck(project, project);
    assert.ok(readdirSync(project).includes("bun-default.d.ts"), "declarations were emitted");
    await serveWith(process.execPath, ["server.js"], project);
  });

  const settings: Record<string, Record<string, unknown>> = {
    "the strictest options people use": {
      strict: true,
      exactOptionalPropertyTypes: true,
      noPropertyAccessFromIndexSignature: true,
      noImplicitReturns: true,
      noImplicitOverride: true,
      noUncheckedIndexedAccess: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      verbatimModuleSyntax: true,
    },
    'moduleResolution "bundler"': { module: "preserve", moduleResolution: "bundler" },
    'moduleResolution "nodenext"': { module: "nodenext", moduleResolution: "nodenext" },
    "the DOM lib beside @types/node": { lib: ["es2023", "dom", "dom.iterable"] },
  };
  for (const [name, options] of Object.entries(settings)) {
    test(`the consumer type-checks with ${name}`, async () => {
      const project = join(dir, "tsc");
      const config = join(project, `tsconfig.${name.replace(/\W+/g, "-")}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            target: "es2022",
            module: "nodenext",
            types: ["node"],
            lib: ["es2023"],
            skipLibCheck: false,
            declaration: true,
            noEmit: true,
            ...options,
          },
          files: ["server.ts", "bun-default.ts", "register.ts"],
        }),
      );
      await typeCheck(config, project);
    });
  }

  test("Bun: bun bun-server.ts", async () => {
    await serveWith(bun, ["bun-server.ts"]);
  });

  test("Deno: the npm package through an npm: specifier", async () => {
    await serveWith(deno, ["run", ...DENO_FLAGS, "deno-server.ts"]);
  });

  test("Deno: the JSR layout (the files deno publish ships, resolved by their own deno.json)", async () => {
    const jsr = join(dir, "jsr");
    const packageDir = join(jsr, "portico");
    const { publish, exports } = JSON.parse(readFileSync(join(root, "deno.json"), "utf8"));
    for (const path of publish.include as string[])
      cpSync(join(root, path), join(packageDir, path), { recursive: true });
    writeFileSync(
      join(jsr, "deno.json"),
      JSON.stringify({
        workspace: ["./portico"],
        imports: { valibot: `npm:valibot@${pkg.dependencies.valibot}` },
      }),
    );
    writeFileSync(
      join(jsr, "app.ts"),
      readFileSync(join(consumer, "app.ts"), "utf8").replace('from "portico"', 'from "@portico/portico"'),
    );
    writeFileSync(
      join(jsr, "server.ts"),
      'import { serve } from "@portico/portico/deno";\nimport { app } from "./app.ts";\n' +
        'const server = await serve(app, { port: 0 });\nconsole.log("READY " + server.url.origin);\n',
    );
    assert.ok(Object.keys(exports).includes("./deno"));
    await serveWith(deno, ["run", ...DENO_FLAGS, "--node-modules-dir=manual", "server.ts"], jsr);
  });

  test("workerd: the app bundled as Wrangler bundles it (esbuild, platform neutral)", async () => {
    const worker = await startWorker(join(dir, "worker.ts"));
    try {
      await exercise(worker);
    } finally {
      await worker.stop();
    }
  });
});
