// Installs the runtimes the test suite runs on (Bun, Node 22 and 24, workerd/Miniflare), pinned by
// this folder's package-lock.json, unless the installed ones already match it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
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

// The Debian packages real-service tests use (the browser tests drive Chromium; topics across
// instances need a real Redis, and NATS). Installed with
// apt-get when missing (as root, or through sudo); otherwise the tests that need them fail saying so.
const systemPackages = [
  { name: "chromium", binary: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
  { name: "redis-server", binary: "/usr/bin/redis-server" },
  { name: "nats-server", binary: "/usr/sbin/nats-server" },
  // The TLS tests of the backplane drivers make their certificates with it.
  { name: "openssl", binary: "/usr/bin/openssl" },
  // The RealWorld example's tests run it on a PostgreSQL server too (any version Debian has).
  { name: "postgresql", binary: "/usr/lib/postgresql", isHere: postgresInstalled },
];
function postgresInstalled() {
  return (
    existsSync("/usr/lib/postgresql") &&
    readdirSync("/usr/lib/postgresql").some((version) =>
      existsSync(`/usr/lib/postgresql/${version}/bin/postgres`),
    )
  );
}
const missing = systemPackages
  .filter(({ binary, isHere }) => !(isHere ? isHere() : existsSync(binary)))
  .map(({ name }) => name);
if (missing.length > 0) {
  console.log(`Installing Debian packages (${missing.join(", ")})…`);
  const asRoot = process.getuid?.() === 0;
  const run = (args) =>
    execFileSync(asRoot ? args[0] : "sudo", asRoot ? args.slice(1) : ["-n", ...args], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    run(["apt-get", "update", "-qq"]);
    run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...missing]);
  } catch (error) {
    console.error(
      `Could not install ${missing.join(", ")} (${error.message}); the tests that need them will fail until ` +
        `\`apt-get install ${missing.join(" ")}\` is run.`,
    );
  }
}

// The reference UI `docsPage()` pins (Scalar's standalone file), for the browser test that renders it
// self-hosted under its policy: only that file, from the package's registry tarball (the package's own
// dependencies are not needed by the built file), checked against the integrity hash docsPage() sends.
ensureScalar();
function ensureScalar() {
  const source = readFileSync(join(here, "..", "src", "openapi", "docs-page.ts"), "utf8");
  const version = /SCALAR_VERSION = "([^"]+)"/.exec(source)?.[1];
  const integrity = /SCALAR_INTEGRITY = "sha384-([^"]+)"/.exec(source)?.[1];
  const target = join(here, "node_modules", ".scalar", `standalone-${version}.js`);
  if (version === undefined || integrity === undefined) throw new Error("docs-page.ts: no pinned Scalar");
  if (existsSync(target)) return;
  console.log(`Fetching @scalar/api-reference@${version}'s standalone.js…`);
  const scratch = mkdtempSync(join(tmpdir(), "portico-scalar-"));
  try {
    const packed = execFileSync(
      "npm",
      ["pack", `@scalar/api-reference@${version}`, "--pack-destination", scratch, "--silent"],
      { encoding: "utf8" },
    ).trim();
    const file = execFileSync(
      "tar",
      ["-xzOf", join(scratch, packed.split("\n").pop()), "package/dist/browser/standalone.js"],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const actual = createHash("sha384").update(file).digest("base64");
    if (actual !== integrity)
      throw new Error(
        `@scalar/api-reference@${version}: standalone.js is sha384-${actual}, not the pinned hash`,
      );
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
