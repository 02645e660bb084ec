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
   * `limit`, when given, is the count past which the caller refuses: a store that must forget keys to
   * make room never forgets one past it while its window lasts.
   */
  increment(key: string, ttlMs: number, limit?: number): Promise<StoreCount>;
  /** Releases what the store holds open (a connection). */
  close(): Promise<void>;
}

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * The most counters held (default 100,000). Past it, expired windows go first, then the lowest
   * counts (a tenth of the budget at once); a window over its limit is never forgotten — when every
   * counter is over its limit, a new client's count fails instead (`rateLimit()` then lets it through
   * uncounted, reported, unless `onStoreError` refuses). Each counter costs about 150 bytes.
   */
  readonly maxKeys?: number;
  /**
   * The most other values held (default 100,000: sessions, claims): an unexpired one is never
   * forgotten to make room, and `set` past it fails with an error saying the store is full.
   */
  readonly maxValues?: number;
}

interface Counter {
  count: number;
  readonly resetAt: number;
  // Over the limit its caller gave: never evicted while its window lasts.
  pinned: boolean;
}

/**
 * A store in this process's memory: for one instance, tests and development. Expired keys are swept as
 * it is used (no timer). Counters (`increment`) and values (`set`) have budgets of their own, so that
 * many clients being counted never push a session out.
 *
 * @example
 * app.use(rateLimit({ windowMs: 60_000, max: 100, store: memoryStore() }));
 */
export function memoryStore(options: MemoryStoreOptions = {}): KeyValueStore {
  const maxKeys = budget(options.maxKeys, "maxKeys");
  const maxValues = budget(options.maxValues, "maxValues");
  const values = new Map<string, { value: string; expiresAt: number }>();
  const counters = new Map<string, Counter>();
  let nextSweep = 0;
  // Expired entries of both kinds: when the soonest has expired, and at most once a second (reads check
  // expiry themselves; a full budget sweeps at once).
  const sweep = (now: number, force = false) => {
    if (!force && now < nextSweep) return;
    let soonest = Number.POSITIVE_INFINITY;
    for (const [key, entry] of values)
      if (entry.expiresAt <= now) values.delete(key);
      else soonest = Math.min(soonest, entry.expiresAt);
    for (const [key, counter] of counters)
      if (counter.resetAt <= now) counters.delete(key);
      else soonest = Math.min(soonest, counter.resetAt);
    nextSweep = Math.max(soonest, now + 1000);
  };
  const value = (key: string, now: number) => {
    const entry = values.get(key);
    if (entry === undefined || entry.expiresAt > now) return entry;
    values.delete(key);
    return undefined;
  };
  const counter = (key: string, now: number) => {
    const entry = counters.get(key);
    if (entry === undefined || entry.resetAt > now) return entry;
    counters.delete(key);
    return undefined;
  };
  // Room for a new counter: expired windows first, then the lowest counts (the oldest of equal ones).
  const makeRoom = (now: number) => {
    sweep(now, true);
    if (counters.size < maxKeys) return true;
    const evictable = [...counters].filter(([, entry]) => !entry.pinned);
    evictable.sort((a, b) => a[1].count - b[1].count);
    const goal = Math.max(1, Math.ceil(maxKeys / 10));
    for (let i = 0; i < evictable.length && i < goal; i++) counters.delete(evictable[i]![0]);
    return counters.size < maxKeys;
  };
  return {
    get: async (key) => {
      const now = Date.now();
      const found = value(key, now)?.value;
      if (found !== undefined) return found;
      const count = counter(key, now);
      return count === undefined ? undefined : String(count.count);
    },
    set: async (key, text, ttlMs) => {
      const now = Date.now();
      sweep(now);
      counters.delete(key);
      if (!values.has(key) && values.size >= maxValues) {
        sweep(now, true);
        if (values.size >= maxValues)
          throw new Error(
            `memoryStore(): full (maxValues: ${maxValues} unexpired values); nothing was forgotten`,
          );
      }
      values.delete(key);
      values.set(key, { value: text, expiresAt: now + ttlMs });
      nextSweep = Math.min(nextSweep, now + ttlMs);
    },
    delete: async (key) => {
      values.delete(key);
      counters.delete(key);
    },
    increment: async (key, ttlMs, limit) => {
      const now = Date.now();
      sweep(now);
      let entry = counter(key, now);
      if (entry === undefined) {
        const start = Number(value(key, now)?.value ?? 0);
        if (counters.size >= maxKeys && !makeRoom(now))
          throw new Error(
            `memoryStore(): full (maxKeys: ${maxKeys} counters, every one over its limit); this key was not counted`,
          );
        values.delete(key);
        entry = { count: Number.isFinite(start) ? start : 0, resetAt: now + ttlMs, pinned: false };
        counters.set(key, entry);
        nextSweep = Math.min(nextSweep, entry.resetAt);
      }
      entry.count++;
      if (limit !== undefined && entry.count > limit) entry.pinned = true;
      return { count: entry.count, resetAt: entry.resetAt };
    },
    close: async () => {
      values.clear();
      counters.clear();
    },
  };
}

function budget(given: number | undefined, name: string): number {
  const value = given ?? 100_000;
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`memoryStore(): ${name} must be a positive integer`);
  return value;
}
