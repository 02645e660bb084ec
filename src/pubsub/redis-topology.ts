// How the Redis driver (`redis.ts`) reaches Redis: one server (`url`), a Redis Cluster (`cluster`:
// sharded pub/sub, commands routed by key) or the master a Sentinel names (`sentinel`: followed through
// failovers). Each gives the driver a client with the same calls (connect, publish, subscribe, close),
// and the history (`redis-history.ts`) a connection its scripts are sent through.
import type { RedisClientOptions, RedisClusterOptions } from "redis";
import type { RedisConnection } from "./redis-history.ts";
import type { Client, RedisModule, RedisSentinelTarget, SentinelMaster } from "./redis-sentinel.ts";

/** Where Redis is. */
export type RedisTopology =
  | { readonly kind: "single"; readonly url: string }
  | { readonly kind: "cluster"; readonly nodes: readonly string[] }
  | { readonly kind: "sentinel"; readonly sentinel: RedisSentinelTarget };

/** The topology `redisPubSub`'s options name: exactly one of `url`, `cluster`, `sentinel`. */
export function redisTopology(options: {
  readonly url?: string | undefined;
  readonly cluster?: readonly string[] | undefined;
  readonly sentinel?: RedisSentinelTarget | undefined;
}): RedisTopology {
  const given = [options.url, options.cluster, options.sentinel].filter((where) => where !== undefined);
  if (given.length !== 1)
    throw new TypeError(
      "redisPubSub needs one of url (one Redis), cluster (a Redis Cluster's node URLs) or sentinel ({ name, nodes })",
    );
  if (options.url !== undefined) return { kind: "single", url: options.url };
  if (options.sentinel !== undefined) {
    if (options.sentinel.nodes.length === 0)
      throw new TypeError("redisPubSub: sentinel.nodes needs at least one Sentinel URL");
    return { kind: "sentinel", sentinel: options.sentinel };
  }
  if (options.cluster!.length === 0) throw new TypeError("redisPubSub: cluster needs at least one node URL");
  return { kind: "cluster", nodes: options.cluster! };
}

/**
 * A client for the topology. A cluster's nodes that are away are kept in `down` (its client stays ready
 * while one is), `update` called on each change, and `onReady` when one comes back. Behind a Sentinel,
 * a client to the master `master` knows (`onReady` once its role is checked).
 */
export function openClient(
  redis: RedisModule,
  topology: RedisTopology,
  options: RedisClientOptions,
  down: Set<string>,
  update: () => void,
  onReady: (() => void) | undefined,
  master: SentinelMaster | undefined,
): Client {
  if (topology.kind === "single") return redis.createClient({ ...options, url: topology.url });
  if (topology.kind === "sentinel") {
    if (master === undefined) throw new TypeError("A Sentinel's master needs its SentinelMaster");
    // Not connected while the master is unknown (its clients are opened again once it is known).
    const client = master.client(options) ?? redis.createClient(options);
    master.attach(client, onReady, update);
    return client;
  }
  const cluster = redis.createCluster({
    rootNodes: topology.nodes.map((url) => ({ url })),
    defaults: options as NonNullable<RedisClusterOptions["defaults"]>,
  });
  type Node = { host?: string; port?: number };
  const away = (info: Node): void => {
    down.add(`${info.host}:${info.port}`);
    update();
  };
  cluster.on("node-disconnect", away);
  cluster.on("node-reconnecting", away);
  cluster.on("node-ready", (info: Node) => {
    if (!down.delete(`${info.host}:${info.port}`)) return;
    update();
    onReady?.();
  });
  return cluster as unknown as Client;
}

/**
 * The connection the history's scripts go through: a cluster's routes each to the node of its first
 * key (`EVAL script n key…`).
 */
export function scriptConnection(
  topology: RedisTopology,
  client: Client,
  usable: (client: Client) => boolean,
): RedisConnection {
  if (topology.kind !== "cluster")
    return {
      get isReady() {
        return usable(client);
      },
      sendCommand: (args, options) => client.sendCommand(args, options),
    };
  const routed = client as unknown as {
    readonly isReady: boolean;
    sendCommand<T>(...args: unknown[]): Promise<T>;
  };
  return {
    get isReady() {
      return routed.isReady;
    },
    sendCommand: <T>(args: readonly (string | Buffer)[], options?: { typeMapping?: object }) =>
      routed.sendCommand<T>(args[3], false, [...args], options),
  };
}
