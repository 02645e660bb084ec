// Revoking a subject's sessions (`session({ revocation })`): a sealed cookie is valid by itself, so a copy
// taken before a logout still opens after it. Each subject (a user) has a generation in a store: absent
// until the first revocation, then a random value that each `revoke()` replaces. A session is sealed with
// its subject's generation when it is saved and checked against it when it is read: a mismatch is an empty
// session, as for a tampered cookie.
//
// Why a random value written with `set`, not a counter: `increment` expires a fixed window after its first
// increment, and a counter that expired and started again would repeat an old generation, bringing the
// cookies sealed with it back. A random value never repeats, and each revocation keeps it `maxAge` —
// longer than any cookie sealed before it lives — so that a record that expires revives nothing: every
// cookie it revoked has expired by then, and the cookies sealed after it carry its value, accepted again
// once no revocation is recorded.

import { toBase64Url } from "../http/base64.ts";
import type { KeyValueStore } from "../middleware/store.ts";

/** The `revocation` option of `session()`: whose sessions `sessions.revoke(subject)` ends everywhere. */
export interface SessionRevocation<TData> {
  /**
   * Where each subject's generation is kept (`memoryStore()`, `redisStore({ url })` from
   * `portico/middleware`): share it between instances, and give it room (a store that forgets a record
   * early brings the sessions it revoked back).
   */
  readonly store: KeyValueStore;
  /** The subject a session belongs to, from its data (its user's id); `undefined`: none, never revoked. */
  readonly subject: (data: Partial<TData>) => string | number | undefined;
  /** The store's key prefix (default `"session-generation:"`). */
  readonly prefix?: string;
  /**
   * Told when the store fails while a session is read; the session is then empty (it fails closed).
   * By default the error is logged with `console.error`.
   */
  readonly onStoreError?: (error: unknown) => void;
}

/** What `session()` asks of a revocation: a subject's generation, and a new one. */
export interface Revocations {
  /** The subject of a session's data, as a string, or `undefined`. */
  subjectOf(data: Record<string, unknown>): string | undefined;
  /**
   * Whether a session of `subject` sealed with `generation` is still valid, with the generation to seal it
   * with again; `undefined` when it was revoked or the store failed.
   */
  check(
    subject: string,
    generation: string | undefined,
  ): Promise<{ generation: string | undefined } | undefined>;
  /** The subject's current generation (`undefined`: never revoked, or its record expired). */
  current(subject: string): Promise<string | undefined>;
  /** Ends every session of the subject sealed before now. */
  revoke(subject: string | number): Promise<void>;
}

/** The revocations of `options`, each record kept `maxAge` seconds. */
export function revocations(options: SessionRevocation<never>, maxAge: number): Revocations {
  const { store, subject } = options;
  if (typeof store?.get !== "function" || typeof subject !== "function")
    throw new TypeError("session(): revocation needs a store and a subject function");
  const prefix = options.prefix ?? "session-generation:";
  const onStoreError =
    options.onStoreError ??
    ((error: unknown) => {
      console.error("session(): the revocation store failed; the session is read as empty", error);
    });
  const key = (value: string | number) => {
    const name = String(value);
    if (name === "") throw new TypeError("session(): a revocation subject is a non-empty string or a number");
    return prefix + name;
  };
  return {
    subjectOf(data) {
      const value = (subject as (data: Record<string, unknown>) => unknown)(data);
      return (typeof value === "string" && value !== "") || typeof value === "number"
        ? String(value)
        : undefined;
    },
    async check(name, generation) {
      let current: string | undefined;
      try {
        current = await store.get(key(name));
      } catch (error) {
        onStoreError(error);
        return undefined;
      }
      // No record: never revoked, or revoked so long ago that every cookie sealed before it has expired.
      if (current === undefined || current === generation) return { generation: current };
      return undefined;
    },
    current: (name) => store.get(key(name)),
    async revoke(name) {
      await store.set(key(name), toBase64Url(crypto.getRandomValues(new Uint8Array(12))), maxAge * 1000);
    },
  };
}
