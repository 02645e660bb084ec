// What a backplane driver does (`redis.ts`, `nats.ts`, or an app's own), and what the backplane
// reports: its counters and its health. Written once, for the drivers and the backplane (`backplane.ts`).
import type { HistoryLimits } from "./history.ts";
import type { OutboxLimits } from "./outbox.ts";

export type { OutboxLimits };

/** A topic's history as a driver reads it: its epoch (`""`: none), and the frames asked for. */
export interface DriverHistoryRead {
  /** The history's epoch; `""` when the topic has none (never published to, or expired). */
  readonly epoch: string;
  /** The frames, numbered (`"at"` in their heads), oldest first. */
  readonly frames: readonly Uint8Array[];
}

/**
 * A backplane between instances (`createApp({ pubsub })`): Redis, NATS, … Given framed bytes; delivery
 * is at most once. The hub subscribes to a topic while it has a local subscriber, and only then.
 */
export interface PubSubDriver {
  /**
   * Starts: frames from other instances go to `receive`, failures (the broker gone…) to `report`, and
   * each change of the connection (lost, back) to `status`.
   */
  start(
    receive: (topic: string, frame: Uint8Array) => void,
    report: (error: unknown) => void,
    status?: (connected: boolean) => void,
  ): void;
  /**
   * Receive a topic's frames (its first local subscriber arrived). The driver keeps the subscription
   * through any outage: one that cannot be made now is made when the broker is back. For a topic with
   * a history, `history` is given (a driver that keeps histories apart from plain topics, as NATS
   * JetStream does, receives those topics' numbered frames from there).
   */
  subscribe(topic: string, history?: HistoryLimits): void | Promise<void>;
  /** Stop receiving a topic (its last local subscriber left). */
  unsubscribe(topic: string): void | Promise<void>;
  /** Sends a frame to the other instances; resolves `false` (dropped) when the broker cannot take it. */
  publish(topic: string, frame: Uint8Array): boolean | Promise<boolean>;
  /** Disconnects. */
  close(): Promise<void>;
  /** Where the backplane's failures go. Default: the app's logger. */
  readonly onError?: ((error: unknown) => void) | undefined;
  /** Bounds on the publishes waiting for the broker (defaults: 10 000 of them, 10 000 ms). */
  readonly limits?: Partial<OutboxLimits> | undefined;
  /** The broker stopped answering: drop the connection (what waits fails) and make a new one. */
  reconnect?(): void;
  /**
   * For topics with a history (`createApp({ history })`): appends a frame to the topic's history,
   * numbering it, and publishes it to every instance, this one included. The frame's head comes open
   * (`openFrame`): the driver closes it with the position it gives (`,"at":"<epoch>:<seq>"}` and a newline), atomically with the
   * number, so that every instance receives a topic's frames in the order of their numbers. Waits for a
   * broker that is reconnecting (the backplane's publish timeout bounds the wait); resolves `false` when
   * it was not appended.
   */
  append?(topic: string, head: string, body: Uint8Array, limits: HistoryLimits): Promise<boolean>;
  /**
   * Up to `limit` frames of a topic's history after `seq` when its epoch is `epoch`, else from the
   * oldest kept.
   */
  read?(topic: string, epoch: string | undefined, seq: number, limit: number): Promise<DriverHistoryRead>;
}

/** What a hub counts (for monitoring): messages published, delivered, dropped by the backplane. */
export interface PubSubStats {
  /** Messages published on this instance. */
  published: number;
  /** Messages handed to this instance's sockets. */
  delivered: number;
  /**
   * Messages the backplane did not confirm (the broker unreachable, not answering, or the outbox full):
   * other instances may not have seen them. Each run of drops is also reported (`onError`).
   */
  dropped: number;
  /** Messages received from other instances. */
  received: number;
  /**
   * Messages of topics with a history that this instance's subscribers missed and the history no
   * longer had (each reported). 0 while recovery works.
   */
  missed: number;
}

/** The backplane's state (`app.topicHealth()`): a readiness check can read it. */
export interface TopicHealth {
  /** Whether the broker is connected (always `true` without a backplane). */
  readonly connected: boolean;
  /** When `connected` last changed, in ms since the epoch. */
  readonly since: number;
  /** The last failure's message, if there was one. */
  readonly lastError: string | undefined;
  /** Publishes handed to the broker and not yet answered. */
  readonly queued: number;
}

/** Where the backplane tells what happened: failures, and recoveries. */
export interface BackplaneLog {
  error(message: string, error?: unknown): void;
  info(message: string): void;
}
