// The join between an app's topics and a broker: what is sent (framed, bounded, timed), what comes back,
// and the state of the connection. The hub (`hub.ts`) keeps the local side.
import type { TopicMessage } from "../runtime/runtime.ts";
import { settleWithin } from "../runtime/settle-within.ts";
import { decodeFrame, encodeFrame } from "./frame.ts";
import { Outbox, type OutboxLimits } from "./outbox.ts";

export type { OutboxLimits };

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
   * through any outage: one that cannot be made now is made when the broker is back.
   */
  subscribe(topic: string): void | Promise<void>;
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

const DEFAULT_LIMITS: OutboxLimits = { maxQueued: 10_000, publishTimeout: 10_000 };

/**
 * One app's backplane. Publishes are handed to the broker at once (before the local fan-out, so a burst
 * to many local sockets cannot starve the broker's connection), at most `maxQueued` at a time; a broker
 * that does not answer within `publishTimeout` is reconnected. Every publish not confirmed is counted
 * as dropped, and each run of drops is reported once, with its count when it ends.
 */
export class Backplane {
  readonly #driver: PubSubDriver;
  readonly #stats: PubSubStats;
  readonly #outbox: Outbox;
  readonly #limits: OutboxLimits;
  readonly #log: BackplaneLog;
  readonly #from: () => string;
  readonly #report: (error: unknown) => void;
  // Connected until the driver says otherwise (drivers that report their state start by saying not yet).
  #connected = true;
  #everUp = false;
  #since = Date.now();
  #lastError: string | undefined;
  // The current run of drops: when it began and how many so far.
  #dropping: { since: number; count: number } | undefined;
  #closed: Promise<void> | undefined;

  constructor(
    driver: PubSubDriver,
    stats: PubSubStats,
    from: () => string,
    receive: (topic: string, message: TopicMessage, from: string) => void,
    log: BackplaneLog,
  ) {
    this.#driver = driver;
    this.#stats = stats;
    this.#from = from;
    this.#log = log;
    const onError = driver.onError;
    this.#report = (error) => {
      this.#lastError = error instanceof Error ? error.message : String(error);
      if (onError === undefined) log.error("[portico] pubsub backplane failed", error);
      else onError(error);
    };
    const limits = { ...DEFAULT_LIMITS, ...driver.limits };
    this.#limits = limits;
    this.#outbox = new Outbox(limits, () => {
      this.#report(
        new Error(
          `The broker has not answered a publish for ${limits.publishTimeout} ms: reconnecting; what waits is dropped`,
        ),
      );
      this.#status(false);
      driver.reconnect?.();
    });
    driver.start(
      (topic, frame) => {
        const decoded = decodeFrame(frame);
        if (decoded !== undefined && decoded.from !== from()) receive(topic, decoded.message, decoded.from);
      },
      this.#report,
      (connected) => this.#status(connected),
    );
  }

  /** The connection's state. */
  get health(): TopicHealth {
    return {
      connected: this.#connected,
      since: this.#since,
      lastError: this.#lastError,
      queued: this.#outbox.size,
    };
  }

  /** Starts receiving a topic from other instances. */
  subscribe(topic: string): void {
    this.#call(() => this.#driver.subscribe(topic));
  }

  /** Stops receiving a topic. */
  unsubscribe(topic: string): void {
    this.#call(() => this.#driver.unsubscribe(topic));
  }

  /** Sends a message to the other instances. */
  send(topic: string, message: TopicMessage): void {
    if (this.#closed !== undefined) {
      this.#drop(new Error("The app is closed"));
      return;
    }
    if (this.#outbox.full) {
      this.#drop(
        new Error(`${this.#outbox.size} publishes wait for the broker's answer (the limit): dropping more`),
      );
      return;
    }
    let sent: boolean | Promise<boolean>;
    try {
      sent = this.#driver.publish(topic, encodeFrame(this.#from(), message));
    } catch (error) {
      this.#drop(error);
      return;
    }
    if (!(sent instanceof Promise)) {
      if (sent) this.#sent();
      else this.#drop(undefined);
      return;
    }
    const id = this.#outbox.add();
    sent.then(
      (ok) => {
        this.#outbox.settle(id);
        if (ok) this.#sent();
        else this.#drop(undefined);
      },
      (error: unknown) => {
        this.#outbox.settle(id);
        this.#drop(error);
      },
    );
  }

  /** Waits for the publishes in flight (up to the publish timeout), then disconnects. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await settleWithin(this.#outbox.drained(), this.#limits.publishTimeout);
      await this.#driver.close();
    })();
    return this.#closed;
  }

  #sent(): void {
    if (this.#dropping === undefined) return;
    const { since, count } = this.#dropping;
    this.#dropping = undefined;
    this.#log.info(
      `[portico] pubsub backplane publishing again: ${count} message(s) dropped in ${Date.now() - since} ms`,
    );
  }

  #drop(error: unknown): void {
    this.#stats.dropped++;
    if (this.#dropping !== undefined) {
      this.#dropping.count++;
      return;
    }
    this.#dropping = { since: Date.now(), count: 1 };
    const reason =
      error === undefined
        ? "the broker is unreachable"
        : error instanceof Error
          ? error.message
          : String(error);
    this.#report(
      new Error(`Publishes to other instances are dropped (${reason}); counted in topicStats.dropped`, {
        cause: error,
      }),
    );
  }

  #status(connected: boolean): void {
    if (connected === this.#connected) return;
    const was = this.#since;
    this.#connected = connected;
    this.#since = Date.now();
    if (!connected) return;
    // The first connection is not news; a lost one coming back is.
    if (this.#everUp)
      this.#log.info(`[portico] pubsub backplane connected again after ${this.#since - was} ms`);
    this.#everUp = true;
  }

  #call(action: () => void | Promise<void>): void {
    try {
      const result = action();
      if (result instanceof Promise) result.catch(this.#report);
    } catch (error) {
      this.#report(error);
    }
  }
}
