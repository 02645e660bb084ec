// The one store interface of Portico's batteries: a key/value store with expiry and an atomic
// increment. `rateLimit()` counts in it; sessions keep their data in it. `memoryStore()` is one
// process's; `redisStore()` is shared by every instance.

/** A counter after {@link KeyValueStore.increment}: its value and when its window ends (ms since the epoch). */
export interface StoreCount {
  /** The value after this increment (1 for the first in a window). */
  readonly count: number;
  /** When the key expires and counting starts again. */
  readonly resetAt: number;
}

/** A key/value store with expiry and an atomic increment: what `rateLimit()` and sessions share. */
export interface KeyValueStore {
  /** The value, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets a value that expires after `ttlMs` milliseconds. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes a key (nothing when absent). */
  delete(key: string): Promise<void>;
  /**
   * Adds one to a counter, atomically across everyone sharing the store; a counter that did not exist
   * starts at 1 and expires after `ttlMs` (a fixed window: later increments do not extend it).
   */
  increment(key: string, ttlMs: number): Promise<StoreCount>;
  /** Releases what the store holds open (a connection). */
  close(): Promise<void>;
}

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** The most keys held (default 100,000): past it, the oldest are forgotten first. */
  readonly maxKeys?: number;
}

/**
 * A store in this process's memory: for one instance, tests and development. Expired keys are swept as
 * it is used (no timer), and it never holds more than `maxKeys`.
 *
 * @example
 * app.use(rateLimit({ windowMs: 60_000, max: 100, store: memoryStore() }));
 */
export function memoryStore(options: MemoryStoreOptions = {}): KeyValueStore {
  const maxKeys = options.maxKeys ?? 100_000;
  if (!Number.isInteger(maxKeys) || maxKeys < 1)
    throw new TypeError("memoryStore(): maxKeys must be a positive integer");
  const entries = new Map<string, { value: string; expiresAt: number }>();
  let nextSweep = 0;
  const live = (key: string, now: number) => {
    const entry = entries.get(key);
    if (entry === undefined || entry.expiresAt > now) return entry;
    entries.delete(key);
    return undefined;
  };
  // Written keys go to the end of the map: the first ones are the least recently written.
  const put = (key: string, value: string, expiresAt: number, now: number) => {
    if (now >= nextSweep) {
      let soonest = Number.POSITIVE_INFINITY;
      for (const [name, entry] of entries)
        if (entry.expiresAt <= now) entries.delete(name);
        else soonest = Math.min(soonest, entry.expiresAt);
      nextSweep = soonest;
    }
    entries.delete(key);
    entries.set(key, { value, expiresAt });
    nextSweep = Math.min(nextSweep, expiresAt);
    while (entries.size > maxKeys) entries.delete(entries.keys().next().value!);
  };
  return {
    get: async (key) => live(key, Date.now())?.value,
    set: async (key, value, ttlMs) => {
      const now = Date.now();
      put(key, value, now + ttlMs, now);
    },
    delete: async (key) => {
      entries.delete(key);
    },
    increment: async (key, ttlMs) => {
      const now = Date.now();
      const entry = live(key, now);
      const count = entry === undefined ? 1 : Number(entry.value) + 1;
      const resetAt = entry?.expiresAt ?? now + ttlMs;
      put(key, String(count), resetAt, now);
      return { count, resetAt };
    },
    close: async () => {
      entries.clear();
    },
  };
}
