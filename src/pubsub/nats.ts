/**
 * A NATS backplane for topics: `createApp({ pubsub: natsPubSub({ servers }) })`. One subject per topic
 * (`portico.<topic>`, the topic encoded to a single subject token), subscribed only while this instance
 * has a subscriber to it. Uses `@nats-io/transport-node` (an optional peer dependency: install it with
 * this entry; it runs on Node, Bun and Deno).
 *
 * Delivery is at most once: while the server is unreachable, local delivery goes on, publishes to
 * other instances are dropped and counted (`app.topicStats.dropped`) rather than buffered, the client
 * reconnects without end (every `reconnectWait` ms) and its subscriptions come back with it, and errors
 * go to the app's logger.
 *
 * @example
 * import { natsPubSub } from "portico/pubsub/nats";
 * const app = createApp({ pubsub: natsPubSub({ servers: "nats://localhost:4222" }) });
 *
 * @module
 */
import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { optionalPeer } from "../runtime/optional-peer.ts";

import type { PubSubDriver } from "./hub.ts";

const { connect } = await optionalPeer(
  "@nats-io/transport-node",
  "portico/pubsub/nats",
  () => import("@nats-io/transport-node"),
);

/** Options of {@link natsPubSub}. */
export interface NatsPubSubOptions {
  /** Where failures go (the broker unreachable, a failed subscription). Default: the app\'s logger. */
  readonly onError?: (error: unknown) => void;
  /** The server (`nats://host:4222`), or several. */
  readonly servers: string | readonly string[];
  /** The subject prefix. Default `portico`. */
  readonly prefix?: string;
  /** The wait between reconnection attempts, in ms. Default 250. */
  readonly reconnectWait?: number;
}

// A topic as one subject token: letters, digits, `-` and `_` as they are, anything else as `~hh`.
function token(topic: string): string {
  return Array.from(new TextEncoder().encode(topic), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9_-]/.test(c) ? c : `~${byte.toString(16).padStart(2, "0")}`;
  }).join("");
}

/** A topic backplane over NATS core pub/sub (see the module's documentation). */
export function natsPubSub(options: NatsPubSubOptions): PubSubDriver {
  const prefix = options.prefix ?? "portico";
  const subscriptions = new Map<string, Subscription>();
  // The topics wanted now: an unsubscribe that comes while the connection is still being made wins
  // over the subscribe waiting for it.
  const wanted = new Set<string>();
  let connection: Promise<NatsConnection> | undefined;
  let connected = false;
  let receive: (topic: string, frame: Uint8Array) => void = () => {};
  return {
    start(onFrame, appReport) {
      const report = options.onError ?? appReport;
      receive = onFrame;
      connection = connect({
        servers: typeof options.servers === "string" ? options.servers : [...options.servers],
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: options.reconnectWait ?? 250,
        waitOnFirstConnect: true,
      });
      connection.then(async (nc) => {
        connected = true;
        for await (const status of nc.status()) {
          if (status.type === "disconnect") {
            connected = false;
            report(
              new Error("NATS connection lost: publishes to other instances are dropped until it is back"),
            );
          } else if (status.type === "reconnect") connected = true;
        }
      }, report);
    },
    async subscribe(topic) {
      wanted.add(topic);
      const nc = await connection!;
      if (!wanted.has(topic) || subscriptions.has(topic)) return;
      subscriptions.set(
        topic,
        nc.subscribe(`${prefix}.${token(topic)}`, {
          callback: (error, message) => {
            if (error === null) receive(topic, message.data);
          },
        }),
      );
    },
    unsubscribe(topic) {
      wanted.delete(topic);
      subscriptions.get(topic)?.unsubscribe();
      subscriptions.delete(topic);
    },
    async publish(topic, frame) {
      if (!connected) return false;
      try {
        (await connection!).publish(`${prefix}.${token(topic)}`, frame);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      const nc = await connection?.catch(() => undefined);
      await nc?.drain().catch(() => nc.close());
    },
  };
}
