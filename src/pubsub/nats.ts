/**
 * A NATS backplane for topics: `createApp({ pubsub: natsPubSub({ servers }) })`. One subject per topic
 * (`portico.<topic>`, the topic encoded to a single subject token), subscribed only while this instance
 * has a subscriber to it. Uses `@nats-io/transport-node` (an optional peer dependency: install it with
 * this entry; it runs on Node, Bun and Deno).
 *
 * Delivery is at most once, and no loss is silent:
 * - While the server is unreachable, local delivery goes on; publishes to other instances are dropped,
 *   counted (`app.topicStats.dropped`) and reported (`onError`, once per run of drops) rather than
 *   buffered. The client reconnects without end (every `reconnectWait` ms) and its subscriptions come
 *   back with it.
 * - A publish counts as sent once the server has answered a ping sent after it (one ping for a whole
 *   burst, at most one in flight): what a connection lost before that is counted as dropped. At most
 *   `maxQueued` publishes wait for that answer; a server that gives none for `publishTimeout` ms of the
 *   event loop's awake time is reconnected. Pings every `pingInterval` ms find a server that hung with
 *   nothing to send.
 * - `app.topicHealth()` says whether the connection is up, and since when.
 *
 * Topics with a history (`createApp({ history })`) are kept in JetStream, one stream per topic
 * (`nats-history.ts`; install `@nats-io/jetstream` too, and run the server with `-js`).
 *
 * @example
 * import { natsPubSub } from "portico/pubsub/nats";
 * const app = createApp({ pubsub: natsPubSub({ servers: "nats://localhost:4222" }) });
 *
 * @module portico/pubsub/nats
 */
import type { ConnectionOptions, NatsConnection, Subscription } from "@nats-io/transport-node";
import { optionalPeer } from "../runtime/optional-peer.ts";
import { settleWithin } from "../runtime/settle-within.ts";

import type { PubSubDriver } from "./driver.ts";
import { NatsHistory } from "./nats-history.ts";

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
  /** How often the client pings an idle server, in ms (two unanswered: reconnect). Default 2000. */
  readonly pingInterval?: number;
  /** Most publishes waiting for the server's answer; more are dropped (counted, reported). Default 10 000. */
  readonly maxQueued?: number;
  /** How long a publish may wait for the server's answer before the connection is replaced, in ms. Default 10 000. */
  readonly publishTimeout?: number;
  /**
   * More of the client's connection options (TLS, `user`/`pass`, `token`, `authenticator`…). The
   * servers, the reconnection and the pings stay Portico's.
   */
  readonly connection?: ConnectionOptions;
  /**
   * Where JetStream keeps the streams of topics with a history (`createApp({ history })`): `"file"`
   * (default: they survive a server restart) or `"memory"`. The server must run with JetStream
   * (`nats-server -js`), and `@nats-io/jetstream` be installed.
   */
  readonly historyStorage?: "file" | "memory";
}

// A topic as one subject token: letters, digits, `-` and `_` as they are, anything else as `~hh`.
function token(topic: string): string {
  return Array.from(new TextEncoder().encode(topic), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9_-]/.test(c) ? c : `~${byte.toString(16).padStart(2, "0")}`;
  }).join("");
}

// Publishes waiting for the server's answer to one ping.
interface Batch {
  readonly done: Promise<boolean>;
  settle(sent: boolean): void;
}

function batch(): Batch {
  let settle!: (sent: boolean) => void;
  const done = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  return { done, settle };
}

/** A topic backplane over NATS core pub/sub (see the module's documentation). */
export function natsPubSub(options: NatsPubSubOptions): PubSubDriver {
  const prefix = options.prefix ?? "portico";
  const subscriptions = new Map<string, Subscription>();
  // The topics wanted now: an unsubscribe that comes while the connection is still being made wins
  // over the subscribe waiting for it.
  const wanted = new Set<string>();
  let connection: Promise<NatsConnection> | undefined;
  let nc: NatsConnection | undefined;
  let connected = false;
  let closed = false;
  let receive: (topic: string, frame: Uint8Array) => void = () => {};
  let report: (error: unknown) => void = () => {};
  const history = new NatsHistory(
    prefix,
    {
      connection: () => connection!,
      connected: () => connected,
      token,
      report: (error) => report(error),
    },
    options.historyStorage ?? "file",
  );
  // The batch whose ping is out, and the one filling behind it.
  let pinged: Batch | undefined;
  let filling: Batch | undefined;
  const ping = (): void => {
    pinged = filling;
    filling = undefined;
    const current = pinged!;
    nc!.flush().then(
      () => current.settle(true),
      () => current.settle(false),
    );
    current.done.then(() => {
      if (pinged !== current) return;
      pinged = undefined;
      if (filling !== undefined && connected) ping();
    });
  };
  // The connection is lost: what waits for an answer is not confirmed.
  const lose = (): void => {
    for (const waiting of [pinged, filling]) waiting?.settle(false);
    pinged = filling = undefined;
  };
  return {
    onError: options.onError,
    limits: { maxQueued: options.maxQueued ?? 10_000, publishTimeout: options.publishTimeout ?? 10_000 },
    start(onFrame, appReport, onStatus) {
      report = options.onError ?? appReport;
      const status = onStatus ?? (() => {});
      receive = onFrame;
      status(false);
      const wait = options.reconnectWait ?? 250;
      // The first connection is tried until it is made (or the driver closed), its failure reported
      // once (a server refusing the credentials or the certificate would otherwise be retried in
      // silence); after it, the client's own reconnection takes over.
      connection = (async () => {
        let reported = false;
        for (;;) {
          if (closed) throw new Error("The NATS backplane is closed");
          try {
            return await connect({
              ...options.connection,
              servers: typeof options.servers === "string" ? options.servers : [...options.servers],
              reconnect: true,
              maxReconnectAttempts: -1,
              reconnectTimeWait: wait,
              pingInterval: options.pingInterval ?? 2000,
              maxPingOut: 2,
            });
          } catch (error) {
            if (!reported) report(new Error("Could not connect to NATS: retrying", { cause: error }));
            reported = true;
            await new Promise((resolve) => setTimeout(resolve, wait));
          }
        }
      })();
      connection.then(
        async (opened) => {
          if (closed) return;
          nc = opened;
          connected = true;
          status(true);
          history.resume();
          for await (const event of opened.status()) {
            if (event.type === "disconnect" || event.type === "staleConnection") {
              if (!connected) continue;
              connected = false;
              lose();
              status(false);
              report(
                new Error("NATS connection lost: publishes to other instances are dropped until it is back"),
              );
            } else if (event.type === "reconnect") {
              connected = true;
              status(true);
              history.resume();
            }
          }
        },
        () => {},
      );
    },
    async subscribe(topic, limits) {
      // A topic with a history is read from its stream; its plain subject too, where a message without
      // a position (an emitter not told of the history) arrives to be counted and reported.
      if (limits !== undefined) history.subscribe(topic, limits, receive);
      wanted.add(topic);
      const opened = await connection!;
      if (!wanted.has(topic) || subscriptions.has(topic)) return;
      subscriptions.set(
        topic,
        opened.subscribe(`${prefix}.${token(topic)}`, {
          callback: (error, message) => {
            if (error === null) receive(topic, message.data);
          },
        }),
      );
    },
    unsubscribe(topic) {
      history.unsubscribe(topic);
      wanted.delete(topic);
      subscriptions.get(topic)?.unsubscribe();
      subscriptions.delete(topic);
    },
    publish(topic, frame) {
      if (!connected || nc === undefined) return false;
      nc.publish(`${prefix}.${token(topic)}`, frame);
      filling ??= batch();
      const { done } = filling;
      if (pinged === undefined) ping();
      return done;
    },
    append: (topic, head, body, limits) => history.append(topic, head, body, limits),
    read: (topic, epoch, seq, limit) => history.read(topic, epoch, seq, limit),
    reconnect() {
      lose();
      history.fail(new Error("NATS stopped answering: the connection is replaced"));
      nc?.reconnect().catch(() => {});
    },
    async close() {
      closed = true;
      history.close(new Error("The app is closed"));
      const opened = await connection?.catch(() => undefined);
      if (opened !== undefined && !opened.isClosed()) {
        // A server that does not answer cannot be drained: closed after a second.
        if (!(await settleWithin(opened.drain(), 1000))) await opened.close();
      }
      lose();
    },
  };
}
