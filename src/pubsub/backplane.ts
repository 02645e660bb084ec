// The join between an app's topics and a broker: what is sent (framed, bounded, timed), what comes back,
// and the state of the connection. The hub (`hub.ts`) keeps the local side.
import type { TopicMessage } from "../runtime/runtime.ts";
import { settleWithin } from "../runtime/settle-within.ts";
import type { BackplaneLog, PubSubDriver, PubSubStats, TopicHealth } from "./driver.ts";
import { type DecodedFrame, decodeFrame, encodeFrame, openFrame } from "./frame.ts";
import type { HistoryLimits, HistoryRead, HistoryStore } from "./history.ts";
import { parsePosition } from "./history.ts";
import { Outbox, type OutboxLimits } from "./outbox.ts";

const DEFAULT_LIMITS: OutboxLimits = { maxQueued: 10_000, publishTimeout: 10_000 };

/**
 * One app's backplane. Publishes are handed to the broker at once (before the local fan-out, so a burst
 * to many local sockets cannot starve the broker's connection), at most `maxQueued` at a time; a broker
 * that does not answer within `publishTimeout` is reconnected. Every publish not confirmed is counted
 * as dropped, and each run of drops is reported once, with its count when it ends.
 */
export class Backplane implements HistoryStore {
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
  readonly #history: HistoryLimits | undefined;
  /** Called each time the broker is connected again after a loss (topics with a history catch up). */
  onReconnected: () => void = () => {};

  constructor(
    driver: PubSubDriver,
    stats: PubSubStats,
    from: () => string,
    receive: (topic: string, frame: DecodedFrame) => void,
    log: BackplaneLog,
    history?: HistoryLimits,
  ) {
    if (history !== undefined && (driver.append === undefined || driver.read === undefined)) {
      throw new TypeError(
        "This pubsub driver keeps no history: createApp({ history }) needs one that does (redisPubSub, natsPubSub)",
      );
    }
    this.#history = history;
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
        // A numbered frame comes back to its publisher too: every instance delivers the same order.
        const decoded = decodeFrame(frame);
        if (decoded !== undefined && (decoded.at !== undefined || decoded.from !== from()))
          receive(topic, decoded);
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

  /**
   * Starts receiving a topic from other instances (`history`: a topic with a history); settles once the
   * broker confirmed the subscription, where the driver says.
   */
  subscribe(topic: string, history = false): Promise<void> {
    return this.#call(() => this.#driver.subscribe(topic, history ? this.#history : undefined));
  }

  /** Stops receiving a topic. */
  unsubscribe(topic: string): void {
    this.#call(() => this.#driver.unsubscribe(topic));
  }

  /** Sends a message to the other instances. */
  send(topic: string, message: TopicMessage): void {
    this.#hand(() => this.#driver.publish(topic, encodeFrame(this.#from(), message)));
  }

  /** Appends a message to a topic's history; it comes back numbered (`receive`), or is dropped. */
  append(topic: string, message: TopicMessage, skip: number | undefined): void {
    this.#hand(() => {
      const { head, body } = openFrame(this.#from(), message, skip);
      return this.#driver.append!(topic, head, body, this.#history!);
    });
  }

  /** Reads a topic's history (within the publish timeout). */
  async read(topic: string, epoch: string | undefined, seq: number, limit: number): Promise<HistoryRead> {
    const reading = this.#driver.read!(topic, epoch, seq, limit);
    let read: Awaited<typeof reading> | undefined;
    const settled = await settleWithin(
      reading.then((value) => {
        read = value;
      }),
      this.#limits.publishTimeout,
    );
    if (!settled || read === undefined)
      throw new Error(`The history of topic "${topic}" could not be read in time`);
    const entries = [];
    for (const frame of read.frames) {
      const decoded = decodeFrame(frame);
      const position = decoded?.at === undefined ? undefined : parsePosition(decoded.at);
      if (decoded === undefined || position === undefined) continue;
      entries.push({ seq: position.seq, message: decoded.message, from: decoded.from, skip: decoded.skip });
    }
    return { epoch: read.epoch, entries };
  }

  // Hands a publish to the driver: bounded by the outbox, timed, every one not confirmed dropped.
  #hand(publish: () => boolean | Promise<boolean>): void {
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
      sent = publish();
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
    if (this.#everUp) {
      this.#log.info(`[portico] pubsub backplane connected again after ${this.#since - was} ms`);
      this.onReconnected();
    }
    this.#everUp = true;
  }

  // Runs a driver call; settles when it did (its failure reported, never thrown).
  #call(action: () => void | Promise<void>): Promise<void> {
    try {
      const result = action();
      if (result instanceof Promise) return result.catch(this.#report);
    } catch (error) {
      this.#report(error);
    }
    return Promise.resolve();
  }
}
