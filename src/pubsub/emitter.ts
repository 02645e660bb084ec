/**
 * Publishing to an app's topics from outside any app — a job, a cron task, a script — through the same
 * backplane the app instances share. The message reaches every subscriber on every instance, in the
 * same frame an instance sends (version 1: see `README.md`, "Topics, across instances").
 *
 * @example
 * import { topicEmitter } from "portico/pubsub/emitter";
 * import { redisPubSub } from "portico/pubsub/redis";
 *
 * const emitter = topicEmitter(redisPubSub({ url: process.env.REDIS_URL! }));
 * const sent = await emitter.publish("room:lobby", "The nightly report is ready");
 * if (!sent) console.error("not confirmed by Redis:", emitter.health().lastError);
 * await emitter.close();
 *
 * @module
 */
import type { PubSubDriver } from "./driver.ts";
import { checkTopic, encodeFrame } from "./frame.ts";

/** A publisher to an app's topics (see {@link topicEmitter}). */
export interface TopicEmitter {
  /**
   * Publishes a message (text stays text, bytes stay bytes) to every instance's subscribers. Resolves
   * `true` once the broker has taken it, `false` when it could not (the failure goes to `onError`).
   */
  publish(topic: string, message: string | Uint8Array): Promise<boolean>;
  /** Whether the broker is connected, and the last failure. */
  health(): { readonly connected: boolean; readonly lastError: string | undefined };
  /** Disconnects (so the process can exit). */
  close(): Promise<void>;
}

/**
 * An emitter over a backplane driver (`redisPubSub`, `natsPubSub`, or your own). Its messages carry an
 * instance id of their own, so every app instance delivers them.
 */
export function topicEmitter(
  driver: PubSubDriver,
  options: { readonly onError?: (error: unknown) => void } = {},
): TopicEmitter {
  const from = `emitter:${crypto.randomUUID()}`;
  let connected = true;
  let lastError: string | undefined;
  const report = (error: unknown): void => {
    lastError = error instanceof Error ? error.message : String(error);
    (options.onError ?? driver.onError ?? ((e) => console.error("[portico] topic emitter failed", e)))(error);
  };
  // Publishes made before the broker is connected wait for it, up to the publish timeout.
  const waiting = new Set<() => void>();
  const patience = driver.limits?.publishTimeout ?? 10_000;
  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, patience);
      waiting.add(done);
    });
  driver.start(
    () => {},
    report,
    (up) => {
      connected = up;
      if (up) for (const done of [...waiting]) done();
    },
  );
  return {
    async publish(topic, message) {
      checkTopic(topic);
      if (!connected) await connection();
      try {
        if (await driver.publish(topic, encodeFrame(from, message))) return true;
        report(new Error(`The broker did not take a message for "${topic}" (unreachable)`));
      } catch (error) {
        report(error);
      }
      return false;
    },
    health: () => ({ connected, lastError }),
    close: () => driver.close(),
  };
}
