// A real PostgreSQL server for the RealWorld example's tests: Debian's `postgresql` (which `npm test`
// installs), a cluster made for the test in a temporary directory, started on a free loopback port, as
// the `postgres` user when the tests run as root (PostgreSQL refuses to run as root).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, stopBroker } from "./brokers.ts";

function binaries(): string {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))[0]
    : undefined;
  if (version === undefined)
    throw new Error(
      "No PostgreSQL server: install it with `apt-get install postgresql` (npm test does when it may)",
    );
  return join(root, version, "bin");
}

/** A running server: its URL (user `conduit`, no password, database `postgres`) and how to stop it. */
export interface PostgresServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Makes a cluster and starts a server on it; resolves once it accepts connections. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), "portico-pg-"));
  const root = process.getuid?.() === 0;
  // As root, everything runs as `postgres`, which must own the directory.
  const as = (command: string, args: string[]): [string, string[]] =>
    root ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  execFileSync(
    ...as(join(bin, "initdb"), ["-D", data, "-U", "conduit", "-A", "trust", "--no-sync", "-E", "UTF8"]),
    {
      stdio: "ignore",
    },
  );
  const port = await freePort();
  const [command, args] = as(join(bin, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "max_connections=100",
  ]);
  const child: ChildProcess = spawn(command, args);
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready to accept connections")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`postgres exited with ${code}: ${out}`)));
  });
  return {
    url: `postgres://conduit@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await stopBroker(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
