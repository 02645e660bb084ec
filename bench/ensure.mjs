// Installs what the benchmark needs: the peers (this folder's lockfile), the runtimes (the test
// suite's), and wrk (Debian's package) when it is missing and this user may install it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const peers = Object.keys(JSON.parse(readFileSync(join(here, "package.json"), "utf8")).devDependencies);
if (peers.some((name) => !existsSync(join(here, "node_modules", name, "package.json")))) {
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: here, stdio: "inherit" });
}
execFileSync(process.execPath, [join(here, "..", ".runtimes", "ensure.mjs")], { stdio: "inherit" });
const has = (command) => {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
if (!has("wrk")) {
  if (process.getuid?.() !== 0)
    throw new Error("wrk is missing: install Debian's wrk package (apt-get install wrk)");
  execFileSync("sh", ["-c", "apt-get update -qq && apt-get install -y -qq wrk"], { stdio: "inherit" });
}
if (!has("taskset")) throw new Error("taskset (util-linux) is missing");
