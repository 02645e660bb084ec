/**
 * A Redis backplane for topics: `createApp({ pubsub: redisPubSub({ url }) })`. One Redis channel per
 * topic (`portico:<topic>`), subscribed only while this instance has a subscriber to it. Uses the
 * `redis` package (an optional peer dependency: install it with this entry).
 *
 * Delivery is at most once: while Redis is unreachable, local delivery goes on, publishes to other
 * instances are dropped and counted (`app.topicStats.dropped`), the client reconnects with backoff
 * and resubscribes every live topic, and errors go to the app's logger.
 *
 * @example
 * import { redisPubSub } from "portico/pubsub/redis";
 * const app = createApp({ pubsub: redisPubSub({ url: process.env.REDIS_URL }) });
 *
 * @module
 */
import { optionalPeer } from "../runtime/optional-peer.ts";

import type { PubSubDriver } from "./hub.ts";

const { createClient } = await optionalPeer("redis", "portico/pubsub/redis", () => import("redis"));

/** Options of {@link redisPubSub}. */
export interface RedisPubSubOptions {
  /** Where failures go (the broker unreachable, a failed subscription). Default: the app\'s logger. */
  readonly onError?: (error: unknown) => void;
  /** The Redis URL (`redis://host:6379`). */
  readonly url: string;
  /** The prefix of the Redis channels. Default `portico:`. */
  readonly prefix?: string;
  /** The longest wait between reconnection attempts, in ms. Default 2000. */
  readonly maxBackoff?: number;
}

/** A topic backplane over Redis pub/sub (see the module's documentation). */
export function redisPubSub(options: RedisPubSubOptions): PubSubDriver {
  const prefix = options.prefix ?? "portico:";
  const maxBackoff = options.maxBackoff ?? 2000;
  const publisher = createClient({
    url: options.url,
    // At most once: a publish while Redis is away fails now rather than waiting in a queue.
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), maxBackoff) },
  });
  const subscriber = publisher.duplicate();
  let receive: (topic: string, frame: Uint8Array) => void = () => {};
  let ready: Promise<unknown> | undefined;
  return {
    start(onFrame, appReport) {
      const report = options.onError ?? appReport;
      receive = onFrame;
      publisher.on("error", report);
      subscriber.on("error", report);
      ready = Promise.all([publisher.connect(), subscriber.connect()]);
      ready.catch(report);
    },
    async subscribe(topic) {
      await ready;
      await subscriber.subscribe(
        prefix + topic,
        (message: Buffer) =>
          receive(topic, new Uint8Array(message.buffer, message.byteOffset, message.byteLength)),
        true,
      );
    },
    async unsubscribe(topic) {
      await ready;
      await subscriber.unsubscribe(prefix + topic);
    },
    publish(topic, frame) {
      if (!publisher.isReady) return false;
      return publisher
        .publish(prefix + topic, Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength))
        .then(
          () => true,
          () => false,
        );
    },
    async close() {
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
