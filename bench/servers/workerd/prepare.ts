// Bundles one Worker of this folder (its file name: argv[2]) and writes a workerd config serving it on
// $PORT, into bench/.work/workerd/. `start.sh` then runs workerd itself in its own process, so that
// its CPU and memory are the measured process's (Miniflare, which the tests use, puts a proxy worker
// and its own Node process in the way: a fifth of workerd's own throughput here).
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { WORKER_BUNDLE } from "../../../tests/runtimes/processes.ts";

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? "portico.ts";
const port = Number(process.env.PORT ?? 3000);
const out = join(here, "..", "..", ".work", "workerd");
const name = basename(file, ".ts");
mkdirSync(out, { recursive: true });
await build({
  ...WORKER_BUNDLE,
  mainFields: [...WORKER_BUNDLE.mainFields],
  conditions: [...WORKER_BUNDLE.conditions],
  entryPoints: [join(here, file)],
  outfile: join(out, `${name}.mjs`),
  minify: true,
  logLevel: "warning",
});
writeFileSync(
  join(out, `${name}.capnp`),
  `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "${name}.mjs")],
  compatibilityDate = "2026-04-01",
);
`,
);
