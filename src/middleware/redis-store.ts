// `redisStore()`: the store interface on Redis, shared by every instance (through the `redis` package,
// an optional peer dependency loaded on first use). Commands never wait for a connection that is
// away: they fail at once, or after `timeoutMs`, and the caller decides (rateLimit lets the request
// through and reports it).
import { optionalPeer } from "../runtime/optional-peer.ts";
import type { KeyValueStore, StoreCount } from "./store.ts";

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** The server (`redis://localhost:6379`, `rediss://…` for TLS, with credentials and a database number). */
  readonly url: string;
  /** Put before every key (default `"portico:"`), to share a server with other data. */
  readonly prefix?: string;
  /** How long a command may take before it fails, in milliseconds (default 1000). */
  readonly timeoutMs?: number;
}

// INCR, and the window's expiry set by the increment that opened it (or mended, if a key was left
// without one); one round trip, atomic on the server.
const INCREMENT = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

const REDIS: string = "redis";
type RedisModule = { createClient(options: { url: string; disableOfflineQueue: boolean }): unknown };

type Client = {
  connect(): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  on(event: string, listener: (error: unknown) => void): unknown;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
};

/**
 * A store on a Redis server, shared by every instance that names it: `rateLimit()` counts once across
 * all of them. Needs the `redis` package. Close it with `store.close()` when the app stops.
 *
 * @example
 * const store = redisStore({ url: process.env.REDIS_URL! });
 * app.use(rateLimit({ windowMs: 60_000, max: 100, store }));
 */
export function redisStore(options: RedisStoreOptions): KeyValueStore {
  const prefix = options.prefix ?? "portico:";
  const timeoutMs = options.timeoutMs ?? 1000;
  let client: Promise<Client> | undefined;
  let closed = false;
  // The package is loaded once, before any timing: a first request does not pay its loading as a timeout.
  const module = optionalPeer(
    "redis",
    "redisStore() of portico/middleware",
    // Named through a variable: a bundler must not pull the Redis client (and Node's net) into every
    // app that imports portico/middleware (a Worker would not build).
    () => import(/* @vite-ignore */ REDIS) as Promise<RedisModule>,
  );
  module.catch(() => {});
  const open = (redis: Awaited<typeof module>): Promise<Client> => {
    client ??= (async () => {
      const made = redis.createClient({ url: options.url, disableOfflineQueue: true }) as unknown as Client;
      // Errors reach the commands that meet them; the client reconnects by itself.
      made.on("error", () => {});
      await made.connect();
      return made;
    })();
    // A first connection that failed is tried again by the next command.
    client.catch(() => {
      client = undefined;
    });
    return client;
  };
  const run = async <T>(command: (redis: Client) => Promise<T>): Promise<T> => {
    if (closed) throw new Error("redisStore(): the store was closed");
    const redis = await module;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`redisStore(): no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([open(redis).then(command), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    get: (key) => run(async (redis) => (await redis.get(prefix + key)) ?? undefined),
    set: (key, value, ttlMs) =>
      run(async (redis) => {
        await redis.set(prefix + key, value, { PX: Math.max(1, Math.ceil(ttlMs)) });
      }),
    delete: (key) =>
      run(async (redis) => {
        await redis.del(prefix + key);
      }),
    increment: (key, ttlMs) =>
      run(async (redis): Promise<StoreCount> => {
        const ttl = String(Math.max(1, Math.ceil(ttlMs)));
        const [count, left] = (await redis.eval(INCREMENT, { keys: [prefix + key], arguments: [ttl] })) as [
          number,
          number,
        ];
        return { count: Number(count), resetAt: Date.now() + Number(left) };
      }),
    close: async () => {
      closed = true;
      const made = await client?.catch(() => undefined);
      client = undefined;
      await (made?.close?.() ?? made?.quit?.())?.catch(() => {});
    },
  };
}
