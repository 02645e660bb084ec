// Redis beyond one server, for the topic tests: a Redis Cluster (several redis-servers in cluster mode)
// and a master with a replica watched by a Sentinel (redis-server --sentinel), on loopback ports.
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { freePort, REDIS, startBroker, stopBroker, until } from "./brokers.ts";

const cli = "/usr/bin/redis-cli";

function redisCli(port: number, ...args: string[]): string {
  if (!existsSync(cli)) throw new Error("No redis-cli: install it with `apt-get install redis-tools`");
  return spawnSync(cli, ["-p", String(port), ...args], { encoding: "utf8" }).stdout;
}

/** A Redis Cluster on loopback: its nodes' URLs, and how to stop it. */
export interface RedisCluster {
  readonly urls: readonly string[];
  /** Stops node `i` (SIGTERM), waits `downMs`, starts it again (it rejoins with its slots). */
  restart(i: number, downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `size` redis-servers in cluster mode (each also listens on its port + 10000, the cluster bus,
 * so ports are taken below 22768) and joins them into one cluster, slots spread evenly, no replicas.
 */
export async function startRedisCluster(dir: string, size = 3): Promise<RedisCluster> {
  const ports: number[] = [];
  while (ports.length < size) {
    const port = await freePort();
    if (port < 22_768 && !ports.includes(port) && (await isFree(port + 10_000))) ports.push(port);
  }
  const node = (port: number): Promise<ChildProcess> =>
    startBroker(
      REDIS,
      [
        ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        ...["--cluster-enabled", "yes", "--cluster-config-file", `${dir}/nodes-${port}.conf`],
        ...["--cluster-node-timeout", "2000", "--dir", dir],
      ],
      "Ready to accept connections",
    );
  const nodes = await Promise.all(ports.map(node));
  const created = spawnSync(
    cli,
    [
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ],
    { encoding: "utf8" },
  );
  if (created.status !== 0)
    throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
  // Every node agrees the cluster is up.
  const up = () =>
    until(
      () => ports.every((port) => redisCli(port, "cluster", "info").includes("cluster_state:ok")),
      "the cluster to be up",
    );
  await up();
  return {
    urls: ports.map((port) => `redis://127.0.0.1:${port}`),
    restart: async (i, downMs) => {
      await stopBroker(nodes[i]!);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      nodes[i] = await node(ports[i]!);
      await up();
    },
    stop: async () => {
      await Promise.all(nodes.map(stopBroker));
    },
  };
}

function isFree(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A master, its replica and a Sentinel watching them (name `portico`, quorum 1). */
export interface RedisSentinel {
  /** The Sentinel's URL (what an app is given). */
  readonly url: string;
  /** The master's port now (after a failover, the promoted replica's). */
  master(): number;
  /** Kills the master (SIGKILL) and resolves once the Sentinel has promoted the replica. */
  failover(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a master, a replica of it (diskless sync, no delay) and a Sentinel that fails over one second
 * after the master stops answering; resolves once the replica is in sync and the Sentinel knows both.
 */
export async function startRedisSentinel(dir: string): Promise<RedisSentinel> {
  const [masterPort, replicaPort, sentinelPort] = [await freePort(), await freePort(), await freePort()];
  const common = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const servers = new Map<number, ChildProcess>();
  servers.set(
    masterPort,
    await startBroker(REDIS, ["--port", String(masterPort), ...common], "Ready to accept"),
  );
  const replicaArgs = ["--replicaof", "127.0.0.1", String(masterPort), "--repl-diskless-sync-delay", "0"];
  servers.set(
    replicaPort,
    await startBroker(REDIS, ["--port", String(replicaPort), ...common, ...replicaArgs], "Ready to accept"),
  );
  await until(
    () => redisCli(replicaPort, "info", "replication").includes("master_link_status:up"),
    "the replica in sync",
  );
  const config = `${dir}/sentinel-${sentinelPort}.conf`;
  writeFileSync(
    config,
    [
      `port ${sentinelPort}`,
      "bind 127.0.0.1",
      `sentinel monitor portico 127.0.0.1 ${masterPort} 1`,
      "sentinel down-after-milliseconds portico 1000",
      "sentinel failover-timeout portico 5000",
      "",
    ].join("\n"),
  );
  const sentinel = await startBroker(REDIS, [config, "--sentinel"], "+monitor master portico");
  await until(
    () => redisCli(sentinelPort, "sentinel", "replicas", "portico").includes(String(replicaPort)),
    "the Sentinel to know the replica",
  );
  let master = masterPort;
  return {
    url: `redis://127.0.0.1:${sentinelPort}`,
    master: () => master,
    failover: async () => {
      await stopBroker(servers.get(master)!);
      const promoted = master === masterPort ? replicaPort : masterPort;
      await until(
        () =>
          redisCli(sentinelPort, "sentinel", "get-master-addr-by-name", "portico").includes(String(promoted)),
        "the Sentinel to promote the replica",
        20_000,
      );
      master = promoted;
    },
    stop: async () => {
      await Promise.all([sentinel, ...servers.values()].map(stopBroker));
    },
  };
}
