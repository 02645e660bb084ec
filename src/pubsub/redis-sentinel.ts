// A master watched by Redis Sentinel, for the Redis driver (`redis.ts`, `redisPubSub({ sentinel })`).
//
// The driver talks to the master through plain clients, as to one server: pipelined commands stay in
// order and fail when their connection does, so publishes keep their order and appends are sent again
// in order (`resend.ts`). (node-redis's own Sentinel client was tried: it holds commands while the
// master is away, without an error or event, and runs some of them after later ones on the new master.)
// Sentinel is only asked where the master is: at start, when a client loses its connection, and when
// the Sentinels announce a failover (`+switch-master`). A client is taken as the master's only once
// the server says so (`ROLE`): a demoted master still answers, and still takes PUBLISH.
import type { RedisClientOptions } from "redis";

/** The `redis` package. */
export type RedisModule = typeof import("redis");

/** What the driver holds: a client (a cluster's is used through the same calls). */
export type Client = ReturnType<RedisModule["createClient"]>;

/** Where a Sentinel-watched master is found (`redisPubSub({ sentinel })`). */
export interface RedisSentinelTarget {
  /** The master's name, as the Sentinels' `sentinel monitor <name> …`. */
  readonly name: string;
  /** The URLs of some of the Sentinels (the others are discovered). */
  readonly nodes: readonly string[];
  /** Options of the connections to the Sentinels themselves (their password, TLS…). */
  readonly client?: RedisClientOptions;
}

interface Address {
  readonly host: string;
  readonly port: number;
}

/** Where the master is, and whether a client is connected to it. */
export class SentinelMaster {
  readonly #redis: RedisModule;
  readonly #target: RedisSentinelTarget;
  readonly #moved: () => void;
  readonly #report: (error: unknown) => void;
  readonly #verified = new WeakSet<Client>();
  #address: Address | undefined;
  #watcher: Client | undefined;
  #asking: Promise<void> | undefined;
  #again = false;
  #closed = false;

  /** `moved`: the master is elsewhere now (or known for the first time): open new clients. */
  constructor(
    redis: RedisModule,
    target: RedisSentinelTarget,
    moved: () => void,
    report: (error: unknown) => void,
  ) {
    this.#redis = redis;
    this.#target = target;
    this.#moved = moved;
    this.#report = report;
  }

  /** Asks where the master is, and listens for failovers. */
  start(): void {
    const watcher = this.#redis.createClient({ ...this.#target.client, url: this.#target.nodes[0]! });
    watcher.on("error", () => {});
    // Each (re)connection to the Sentinel: a failover may have been missed meanwhile.
    watcher.on("ready", () => void this.locate());
    watcher
      .connect()
      .then(() =>
        watcher.subscribe("+switch-master", (message) => {
          if (message.startsWith(`${this.#target.name} `)) void this.locate();
        }),
      )
      .catch(() => {});
    this.#watcher = watcher as unknown as Client;
    void this.locate();
  }

  /** Whether the master's address is known. */
  get known(): boolean {
    return this.#address !== undefined;
  }

  /** A client to the master as last known (undefined while it is unknown). */
  client(options: RedisClientOptions): Client | undefined {
    const at = this.#address;
    if (at === undefined) return undefined;
    return this.#redis.createClient({
      ...options,
      socket: { ...options.socket, host: at.host, port: at.port },
    });
  }

  /** Whether a client's server said it is the master, since its last connection. */
  isMaster(client: Client): boolean {
    return client.isReady && this.#verified.has(client);
  }

  /**
   * Follows a client: on each connection its server's role is checked (then `onReady`, and `update`);
   * when it loses its connection, the Sentinels are asked again.
   */
  attach(client: Client, onReady: (() => void) | undefined, update: () => void): void {
    client.on("ready", () => {
      this.#verified.delete(client);
      client.sendCommand<[string]>(["ROLE"]).then(
        ([role]) => {
          if (String(role) !== "master") {
            // Demoted, or not promoted yet: ask again soon.
            setTimeout(() => void this.locate(), 250);
            return;
          }
          this.#verified.add(client);
          onReady?.();
          update();
        },
        () => {},
      );
    });
    client.on("reconnecting", () => {
      this.#verified.delete(client);
      void this.locate();
    });
  }

  /** Asks the Sentinels, one after another, where the master is; one question at a time. */
  locate(): Promise<void> {
    if (this.#asking !== undefined) {
      this.#again = true;
      return this.#asking;
    }
    this.#asking = (async () => {
      do {
        this.#again = false;
        const found = await this.#ask();
        if (this.#closed) return;
        if (found === undefined) {
          // Nothing connected yet, so no lost connection will ask again: retry.
          if (this.#address === undefined) setTimeout(() => void this.locate(), 1000);
          continue;
        }
        const known = this.#address;
        if (known?.host === found.host && known.port === found.port) continue;
        this.#address = found;
        this.#moved();
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#asking = undefined;
    });
    return this.#asking;
  }

  async #ask(): Promise<Address | undefined> {
    for (const url of this.#target.nodes) {
      const sentinel = this.#redis.createClient({
        ...this.#target.client,
        url,
        socket: { ...this.#target.client?.socket, connectTimeout: 1000, reconnectStrategy: false },
      });
      sentinel.on("error", () => {});
      try {
        await sentinel.connect();
        const reply = await sentinel.sendCommand<[string, string] | null>([
          "SENTINEL",
          "GET-MASTER-ADDR-BY-NAME",
          this.#target.name,
        ]);
        if (reply !== null) return { host: String(reply[0]), port: Number(reply[1]) };
        this.#report(new Error(`Sentinel ${url} watches no master named "${this.#target.name}"`));
      } catch (error) {
        this.#report(new Error(`Sentinel ${url} did not answer`, { cause: error }));
      } finally {
        sentinel.destroy();
      }
    }
    return undefined;
  }

  /** Stops watching. */
  close(): void {
    this.#closed = true;
    this.#watcher?.destroy();
  }
}
