// Bundles the Portico app as a module Worker and serves it with Miniflare (workerd) on $PORT.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const bundle = await build({
  entryPoints: [join(here, "portico.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  mainFields: ["module", "main"],
  conditions: ["workerd", "worker", "browser"],
  write: false,
  logLevel: "silent",
});
const require = createRequire(join(here, "..", "..", "..", "tests", "runtimes", "package.json"));
const { Miniflare } = (await import(require.resolve("miniflare"))) as typeof import("miniflare");
const mf = new Miniflare({
  modules: true,
  script: bundle.outputFiles[0]!.text,
  compatibilityDate: "2026-04-01",
  host: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
});
const url = await mf.ready;
console.log(`READY ${url.origin}`);
process.on("SIGTERM", () => {
  mf.dispose().then(() => process.exit(0));
});
