/**
 * A Redis backplane for topics: `createApp({ pubsub: redisPubSub({ url }) })`. One Redis channel per
 * topic (`portico:<topic>`), subscribed only while this instance has a subscriber to it. Uses the
 * `redis` package (an optional peer dependency: install it with this entry).
 *
 * Delivery is at most once, and no loss is silent:
 * - While Redis is unreachable, local delivery goes on; publishes to other instances are dropped,
 *   counted (`app.topicStats.dropped`) and reported (`onError`, once per run of drops). The clients
 *   reconnect with backoff, and every topic wanted is subscribed again, including one whose first
 *   subscriber arrived during the outage.
 * - At most `maxQueued` publishes wait for Redis's answer; one that waits `publishTimeout` ms of the
 *   event loop's awake time (a busy loop does not count) means Redis stopped answering: the
 *   connection is replaced and what waited is dropped and counted.
 * - `app.topicHealth()` says whether both connections are up, and since when.
 *
 * One server (`url`), a Redis Cluster (`cluster`: sharded pub/sub) or a master behind Redis Sentinel
 * (`sentinel`: followed through failovers).
 *
 * @example
 * import { redisPubSub } from "portico/pubsub/redis";
 * const app = createApp({ pubsub: redisPubSub({ url: process.env.REDIS_URL }) });
 *
 * @module portico/pubsub/redis
 */
import type { RedisClientOptions } from "redis";
import { optionalPeer } from "../runtime/optional-peer.ts";
import { settleWithin } from "../runtime/settle-within.ts";

import type { PubSubDriver } from "./driver.ts";
import { RedisHistory } from "./redis-history.ts";
import { type Client, type RedisSentinelTarget, SentinelMaster } from "./redis-sentinel.ts";
import { openClient, redisTopology, scriptConnection } from "./redis-topology.ts";

const redis = await optionalPeer("redis", "portico/pubsub/redis", () => import("redis"));
const { ErrorReply, RESP_TYPES } = redis;
// Answers that say "not now" rather than "no": the command is sent again.
const TRANSIENT = /^(READONLY|LOADING|BUSY|TRYAGAIN|CLUSTERDOWN|MASTERDOWN) /;

export type { RedisSentinelTarget } from "./redis-sentinel.ts";

/** Options of {@link redisPubSub}. */
export interface RedisPubSubOptions {
  /** Where failures go (the broker unreachable, a failed subscription, drops). Default: the app's logger. */
  readonly onError?: (error: unknown) => void;
  /**
   * The Redis URL (`redis://host:6379`, `rediss://` for TLS, with `user:password@` for auth). Or
   * `cluster`, or `sentinel`: exactly one of the three.
   */
  readonly url?: string;
  /**
   * A Redis Cluster (Redis 7): the URLs of some of its nodes (the others are discovered). Topics use
   * sharded pub/sub (`SSUBSCRIBE`/`SPUBLISH`): a topic's messages go to the nodes of its slot only, not
   * to the whole cluster, and a topic's channel and history (its name as hash tag) share one slot.
   */
  readonly cluster?: readonly string[];
  /**
   * A master watched by Redis Sentinel: its name and some Sentinels' URLs. The driver follows failovers
   * (publishes drop, counted, while there is no master; every topic is subscribed again on the new one).
   * Replication is asynchronous, so a promoted replica may lack the last appends of a topic with a
   * history: the first append after a master change starts a new epoch (clients get a gap, instances
   * count `missed`) rather than reuse numbers.
   */
  readonly sentinel?: RedisSentinelTarget;
  /** The prefix of the Redis channels. Default `portico:`. */
  readonly prefix?: string;
  /** The longest wait between reconnection attempts, in ms. Default 2000. */
  readonly maxBackoff?: number;
  /** Most publishes waiting for Redis's answer; more are dropped (counted, reported). Default 10 000. */
  readonly maxQueued?: number;
  /** How long a publish may wait for Redis's answer before the connection is replaced, in ms. Default 10 000. */
  readonly publishTimeout?: number;
  /**
   * More of node-redis's client options (TLS, auth, keep-alive…), for both connections. `url`,
   * `disableOfflineQueue`, the reconnect strategy and the command timeout stay Portico's.
   */
  readonly client?: RedisClientOptions;
}

/** A topic backplane over Redis pub/sub (see the module's documentation). */
export function redisPubSub(options: RedisPubSubOptions): PubSubDriver {
  const topology = redisTopology(options);
  const prefix = options.prefix ?? "portico:";
  const sharded = topology.kind === "cluster";
  const channel = (topic: string): string => (sharded ? `${prefix}{${topic}}` : prefix + topic);
  const maxBackoff = options.maxBackoff ?? 2000;
  const clientOptions = {
    ...options.client,
    // At most once: a publish while Redis is away fails now rather than waiting in a queue.
    disableOfflineQueue: true,
    // Publishes are timed by the backplane, on the event loop's awake time (`outbox.ts`): node-redis's
    // own 5 s timer fires after a busy loop before the answers already received are read.
    commandOptions: { ...options.client?.commandOptions, timeout: 0 },
    socket: {
      ...options.client?.socket,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), maxBackoff),
    },
  } as RedisClientOptions;
  // Each topic wanted, with its one listener: subscribing again with the same listener is a no-op in
  // node-redis, so the topics can be subscribed again after any outage without a double delivery.
  const wanted = new Map<string, (message: Buffer) => void>();
  let receive: (topic: string, frame: Uint8Array) => void = () => {};
  let report: (error: unknown) => void = () => {};
  let status: (connected: boolean) => void = () => {};
  let connected = false;
  let closed = false;
  let publisher: Client;
  let subscriber: Client;
  // Topics with a history: their appends and reads go through the publisher.
  // Behind a Sentinel: where the master is; a client counts once its server said it is the master.
  const master =
    topology.kind === "sentinel"
      ? new SentinelMaster(
          redis,
          topology.sentinel,
          () => replace(),
          (error) => report(error),
        )
      : undefined;
  const usable = (client: Client): boolean => master?.isMaster(client) ?? client.isReady;
  const history = new RedisHistory(prefix, () => scriptConnection(topology, publisher, usable), {
    channel,
    publish: sharded ? "SPUBLISH" : "PUBLISH",
    replicated: topology.kind === "sentinel",
    // A demoted master's READONLY is sent again, to the new master; a restarting server's LOADING (and
    // a cluster's TRYAGAIN, CLUSTERDOWN, MASTERDOWN) after a while.
    isReply: (error) => error instanceof ErrorReply && !TRANSIENT.test(error.message),
    isAnswer: (error) => error instanceof ErrorReply,
    buffers: { [RESP_TYPES.BLOB_STRING]: Buffer },
  });
  // Connected once both clients are ready and every wanted topic is subscribed again (then topics with a
  // history read what they missed meanwhile).
  let resubscribed = false;
  const update = (): void => {
    const now = usable(publisher) && usable(subscriber) && resubscribed && down.size === 0;
    if (now === connected) return;
    connected = now;
    status(now);
  };
  // A cluster's nodes that are not connected now (a cluster client stays ready while one is away).
  const down = new Set<string>();
  const open = (onReady?: () => void): Client => {
    const client = openClient(redis, topology, clientOptions, down, update, onReady, master);
    client.on("error", (error: unknown) => {
      if (!closed) report(error);
    });
    if (onReady !== undefined && topology.kind === "single") client.on("ready", onReady);
    for (const event of ["ready", "end", "error", "reconnecting"]) client.on(event, update);
    if (master?.known === false) return client;
    // A cluster's client emits no "ready": its connection resolving is that.
    client.connect().then(
      () => {
        if (!sharded) return;
        onReady?.();
        update();
      },
      (error: unknown) => report(error),
    );
    return client;
  };
  const listen = (topic: string): Promise<void> => {
    const listener = wanted.get(topic);
    if (listener === undefined || !subscriber.isReady) return Promise.resolve();
    const subscribing = sharded
      ? subscriber.sSubscribe(channel(topic), listener, true)
      : subscriber.subscribe(channel(topic), listener, true);
    return subscribing.catch((error: unknown) => {
      if (wanted.get(topic) !== listener || closed) return;
      report(new Error(`Could not subscribe to topic "${topic}": retrying`, { cause: error }));
      // Not connected: the next "ready" subscribes it. Connected (the answer was lost): try again soon.
      if (subscriber.isReady) setTimeout(() => void listen(topic), 250);
    });
  };
  // On every (re)connection: subscribe what is wanted and not held, leave what is held and not wanted.
  const reconcile = (): void => {
    resubscribed = false;
    void Promise.allSettled([...wanted.keys()].map(listen)).then(() => {
      resubscribed = true;
      update();
    });
    // (A cluster's client keeps its own sharded subscriptions across reconnections.)
    if (topology.kind === "cluster") return;
    for (const held of subscriber.getPubSubListeners("CHANNELS").keys()) {
      if (!held.startsWith(prefix) || wanted.has(held.slice(prefix.length))) continue;
      subscriber.unsubscribe(held).catch(() => {});
    }
  };

  // The master moved (a failover), or is known for the first time: both clients go to it.
  const replace = (): void => {
    const [oldPublisher, oldSubscriber] = [publisher, subscriber];
    publisher = open(() => history.resume());
    subscriber = open(reconcile);
    for (const client of [oldPublisher, oldSubscriber]) if (client.isOpen) client.destroy();
    update();
  };

  return {
    onError: options.onError,
    limits: { maxQueued: options.maxQueued ?? 10_000, publishTimeout: options.publishTimeout ?? 10_000 },
    start(onFrame, appReport, onStatus) {
      receive = onFrame;
      report = options.onError ?? appReport;
      status = onStatus ?? status;
      status(false);
      publisher = open(() => history.resume());
      subscriber = open(reconcile);
      master?.start();
    },
    subscribe(topic) {
      if (wanted.has(topic)) return;
      wanted.set(topic, (message: Buffer) =>
        receive(topic, new Uint8Array(message.buffer, message.byteOffset, message.byteLength)),
      );
      // Settles once Redis confirmed it (or it failed and will be retried).
      return listen(topic);
    },
    async unsubscribe(topic) {
      wanted.delete(topic);
      // Not connected: the next connection's reconcile leaves it.
      if (sharded) await subscriber.sUnsubscribe(channel(topic)).catch(() => {});
      else if (subscriber.isReady) await subscriber.unsubscribe(channel(topic));
    },
    publish(topic, frame) {
      if (!usable(publisher)) return false;
      const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
      return (
        sharded ? publisher.sPublish(channel(topic), bytes) : publisher.publish(channel(topic), bytes)
      ).then(() => true);
    },
    append: (topic, head, body, limits) => history.append(topic, head, body, limits),
    read: (topic, epoch, seq, limit) => history.read(topic, epoch, seq, limit),
    reconnect() {
      const stalled = publisher;
      publisher = open(() => history.resume());
      stalled.destroy();
      update();
    },
    async close() {
      closed = true;
      master?.close();
      history.fail(new Error("The app is closed"));
      await Promise.allSettled([subscriber, publisher].map((client) => shut(client)));
    },
  };
}

// Closes a client, gracefully if its server answers within a second.
async function shut(client: Client): Promise<void> {
  if (!client.isOpen) return;
  if (!(await settleWithin(client.close(), 1000))) client.destroy();
}
