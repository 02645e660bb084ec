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
 * Topics with a history (`createApp({ history })`) are appended to it, numbered as an instance's
 * messages are, when the emitter is given the same `history` option as the apps; a message an emitter
 * without it sends to such a topic has no position, and the instances count it as `missed` and report it.
 *
 * @module portico/pubsub/emitter
 */
import type { Topic } from "../context/socket.ts";

export type { Topic } from "../context/socket.ts";

import { settleWithin } from "../runtime/settle-within.ts";
import type { PubSubDriver } from "./driver.ts";
import { checkTopic, encodeFrame, openFrame } from "./frame.ts";
import { type HistoryOptions, historyLimits, historyMatcher } from "./history.ts";

/** Options of {@link topicEmitter}. */
export interface TopicEmitterOptions {
  /** Where failures go. Default: the driver's `onError`, else the console. */
  readonly onError?: (error: unknown) => void;
  /** The apps' `createApp({ history })`: messages to those topics are appended to their history. */
  readonly history?: HistoryOptions;
}

/** A publisher to an app's topics (see {@link topicEmitter}). */
export interface TopicEmitter {
  /**
   * Publishes a message (text stays text, bytes stay bytes) to every instance's subscribers. Resolves
   * `true` once the broker has taken it, `false` when it could not (the failure goes to `onError`). A
   * typed topic (`Chat.topic(name)` of a channel) takes that channel's `out` messages.
   */
  publish<TMessage>(topic: Topic<TMessage>, message: TMessage): Promise<boolean>;
  /** Publishes text or bytes to a topic named by a string (see the typed form above). */
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
export function topicEmitter(driver: PubSubDriver, options: TopicEmitterOptions = {}): TopicEmitter {
  const from = `emitter:${crypto.randomUUID()}`;
  const keeps = options.history === undefined ? () => false : historyMatcher(options.history);
  const limits = options.history === undefined ? undefined : historyLimits(options.history);
  if (limits !== undefined && driver.append === undefined)
    throw new TypeError("This pubsub driver keeps no history: topicEmitter({ history }) needs one that does");
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
    async publish(target: string | Topic<unknown>, value: unknown) {
      const topic = typeof target === "string" ? target : target.name;
      checkTopic(topic);
      if (!connected) await connection();
      try {
        // A typed topic's message is written here: one JSON cannot write is reported, not thrown.
        const message = typeof target === "string" ? (value as string | Uint8Array) : target.encode(value);
        if (limits !== undefined && keeps(topic)) {
          const { head, body } = openFrame(from, message);
          let appended = false;
          let failure: unknown;
          const answered = await settleWithin(
            driver.append!(topic, head, body, limits).then(
              (ok) => {
                appended = ok;
              },
              (error: unknown) => {
                failure = error;
              },
            ),
            patience,
          );
          if (appended) return true;
          // Not answered in time: the connection is replaced, and what waits on it fails.
          if (!answered) driver.reconnect?.();
          report(
            new Error(`The broker did not append a message to "${topic}"'s history`, { cause: failure }),
          );
          return false;
        }
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
