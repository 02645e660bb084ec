// Installs the runtimes the test suite runs on (Bun, Node 22 and 24, workerd/Miniflare), pinned by
// this folder's package-lock.json, unless the installed ones already match it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const lock = JSON.parse(readFileSync(join(here, "package-lock.json"), "utf8"));

function installed(name) {
  const file = join(here, "node_modules", name, "package.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : undefined;
}

const stale = ["bun", "node22", "node24", "miniflare", "workerd"].filter(
  (name) => installed(name) !== lock.packages[`node_modules/${name}`]?.version,
);
const binaries = [".bin/bun", ".bin/workerd", "node22/bin/node", "node24/bin/node"].filter(
  (bin) => !existsSync(join(here, "node_modules", bin)),
);
if (stale.length > 0 || binaries.length > 0) {
  console.log(`Installing test runtimes (${[...stale, ...binaries].join(", ")})…`);
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: here, stdio: "inherit" });
}
