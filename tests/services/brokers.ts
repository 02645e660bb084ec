// Real brokers for the topic tests and bench/pubsub.ts: redis-server and nats-server (Debian packages that
// `npm test` installs), started on free loopback ports.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

/** Where Debian installs the brokers. */
export const REDIS = "/usr/bin/redis-server";
/** Where Debian installs the brokers. */
export const NATS = "/usr/sbin/nats-server";

/** A broker: how to start it on a port, and the environment that points an instance at it. */
export interface Broker {
  readonly name: "Redis" | "NATS";
  start(port: number): Promise<ChildProcess>;
  env(port: number): Record<string, string>;
}

/**
 * A free loopback port below 32768: the ephemeral range starts there, so a port the system handed out
 * could be taken by a client socket before the broker binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** Starts a broker and resolves once it prints `ready`. */
export function startBroker(command: string, args: string[], ready: string): Promise<ChildProcess> {
  if (!existsSync(command)) {
    const name = command.split("/").pop();
    throw new Error(`No ${name}: install it with \`apt-get install ${name}\` (npm test does when it may)`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args);
    let out = "";
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes(ready)) resolve(child);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${command} exited with ${code}: ${out}`)));
  });
}

/** Stops a broker at once (SIGKILL: an outage, not a shutdown). */
export function stopBroker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Redis and NATS. */
export const BROKERS: readonly Broker[] = [
  {
    name: "Redis",
    start: (port) =>
      startBroker(
        REDIS,
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        "Ready to accept connections",
      ),
    env: (port) => ({ REDIS_URL: `redis://127.0.0.1:${port}` }),
  },
  {
    name: "NATS",
    start: (port) => startBroker(NATS, ["-a", "127.0.0.1", "-p", String(port)], "Server is ready"),
    env: (port) => ({ NATS_URL: `nats://127.0.0.1:${port}` }),
  },
];

/** Waits until `check` holds, polling every 25 ms; fails saying what it waited for. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}
