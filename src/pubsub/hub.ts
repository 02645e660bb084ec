// Topics: which local sockets listen to what (`local.ts`; topics with a history: `sequencer.ts`), who
// is in a topic (`presence.ts`), and the backplane (`backplane.ts`) that carries them between instances.

import type { Recovery, SubscribeOptions } from "../context/socket.ts";
import type { TopicMessage } from "../runtime/runtime.ts";
import { Backplane } from "./backplane.ts";
import { type ControlCommand, type Controlled, readCommand, Tags } from "./control.ts";
import type { PubSubDriver, PubSubStats, TopicHealth } from "./driver.ts";
import { CONTROL_TOPIC, checkTopic, type DecodedFrame } from "./frame.ts";
import {
  type HistoryOptions,
  historyLimits,
  historyMatcher,
  MemoryHistory,
  parsePosition,
} from "./history.ts";
import { Joined } from "./joined.ts";
import { LocalTopics, type Subscriber } from "./local.ts";
import { PRESENCE_PREFIX, Presence, type PresenceOptions } from "./presence.ts";
import { Sequencer } from "./sequencer.ts";

export type { HistoryOptions, PubSubDriver, PubSubStats, Subscriber, TopicHealth };

/** Where the hub tells what happened: failures, and the backplane's recoveries. */
export interface HubLog {
  /** A failure: of the backplane, or of a delivery to a local socket. */
  error(message: string, error?: unknown): void;
  /** The backplane is back. */
  info(message: string): void;
}

/**
 * The topics of one app: local delivery to subscribed sockets, and, with a driver, to other instances
 * (through its `Backplane`).
 */
export class TopicHub {
  readonly #local: LocalTopics;
  readonly #backplane: Backplane | undefined;
  readonly #joined = new Joined<Subscriber>();
  readonly #log: HubLog;
  readonly #unnumberedTopics = new Set<string>();
  readonly #tags = new Tags();
  readonly #created = Date.now();
  #instance: string | undefined;
  // Topics with a history: which, in what order they are delivered, and where they are kept.
  readonly #keeps: (topic: string) => boolean;
  readonly #sequencer: Sequencer | undefined;
  /** Counters. */
  readonly stats: PubSubStats = { published: 0, delivered: 0, dropped: 0, received: 0, missed: 0 };

  /** Who is in which topic, on every instance. */
  readonly presence: Presence;

  constructor(
    driver: PubSubDriver | undefined,
    log: HubLog,
    history?: HistoryOptions,
    presence?: PresenceOptions,
  ) {
    this.#log = log;
    this.#local = new LocalTopics((count) => {
      this.stats.delivered += count;
    }, log.error);
    const limits = history === undefined ? undefined : historyLimits(history);
    this.#keeps = history === undefined ? () => false : historyMatcher(history);
    this.#backplane =
      driver === undefined
        ? undefined
        : new Backplane(
            driver,
            this.stats,
            () => this.instance,
            (topic, frame) => this.#received(topic, frame),
            log,
            limits,
          );
    if (limits !== undefined) {
      const sequencer = new Sequencer({
        size: limits.size,
        instance: () => this.instance,
        stats: this.stats,
        error: (message, error) => log.error(message, error),
      });
      sequencer.store =
        this.#backplane ??
        new MemoryHistory(
          limits,
          () => this.instance,
          (topic, epoch, entry) => sequencer.receive(topic, epoch, entry),
        );
      if (this.#backplane !== undefined) this.#backplane.onReconnected = () => sequencer.resync();
      this.#sequencer = sequencer;
    }
    this.presence = new Presence(
      {
        shared: this.#backplane !== undefined,
        instance: () => this.instance,
        send: (topic, message) => this.#backplane?.send(topic, message),
        subscribe: (topic) => this.#backplane?.subscribe(topic),
        unsubscribe: (topic) => this.#backplane?.unsubscribe(topic),
        error: (message, error) => log.error(message, error),
      },
      presence,
    );
    // Commands from other instances are heard for the hub's whole life.
    this.#backplane?.subscribe(CONTROL_TOPIC);
  }

  #received(topic: string, frame: DecodedFrame): void {
    if (topic === CONTROL_TOPIC) {
      this.#remote(frame.message);
      return;
    }
    if (topic.startsWith(PRESENCE_PREFIX)) {
      this.presence.receive(topic, frame.from, frame.message);
      return;
    }
    if (frame.from !== this.instance) this.stats.received++;
    const position = frame.at === undefined ? undefined : parsePosition(frame.at);
    if (position === undefined || this.#sequencer === undefined) {
      if (this.keeps(topic)) this.#unnumbered(topic);
      else this.#local.deliver(topic, frame.message, undefined);
      return;
    }
    this.#sequencer.receive(topic, position.epoch, {
      seq: position.seq,
      message: frame.message,
      from: frame.from,
      skip: frame.skip,
    });
  }

  /** Whether a topic keeps a history (`createApp({ history })`). */
  keeps(topic: string): boolean {
    return this.#sequencer !== undefined && this.#keeps(topic);
  }

  /** Tags a socket, for `control`. */
  tag(socket: Controlled, name: string): void {
    this.#tags.add(socket, name);
  }

  /** A subscriber's tags. */
  tagsOf(subscriber: Subscriber): string[] {
    return this.#tags.of(subscriber);
  }

  /** Applies a command to the sockets with its tag, here and on every other instance. */
  control(command: ControlCommand): void {
    checkTopic(command.tag, "tag");
    if (command.op !== "disconnect") checkTopic(command.topic);
    this.#tags.apply(command);
    this.#backplane?.send(CONTROL_TOPIC, JSON.stringify(command));
  }

  // A message for a topic with a history that has no position (an emitter not given `history`): it
  // cannot be delivered in the history's order, so it is counted as missed and reported, once a topic.
  #unnumbered(topic: string): void {
    this.stats.missed++;
    if (this.#unnumberedTopics.size >= 1000 || this.#unnumberedTopics.has(topic)) return;
    this.#unnumberedTopics.add(topic);
    this.#log.error(
      `[portico] a message for topic "${topic}" came without a position: publish to a topic with a history from an app, or from topicEmitter({ history })`,
    );
  }

  #remote(message: TopicMessage): void {
    const command = readCommand(message);
    if (command === undefined) {
      this.#log.error("[portico] a control message from another instance could not be read");
      return;
    }
    this.#tags.apply(command);
  }

  /** The backplane's state (without one: connected since the hub was made, nothing queued). */
  get health(): TopicHealth {
    return (
      this.#backplane?.health ?? { connected: true, since: this.#created, lastError: undefined, queued: 0 }
    );
  }

  /**
   * This instance's id, in every frame it sends. Made on first use: Workers refuse random values in a
   * module's global scope, where apps are created.
   */
  get instance(): string {
    this.#instance ??= crypto.randomUUID();
    return this.#instance;
  }

  /**
   * Adds a subscriber to a topic. For a topic with a history and `since`, resolves once what the
   * subscriber missed is replayed (or a gap is known).
   */
  subscribe(
    subscriber: Subscriber,
    topic: string,
    options?: SubscribeOptions,
  ): Promise<Recovery> | undefined {
    checkTopic(topic);
    const recovery = this.#add(subscriber, topic, options);
    if (options?.presence !== undefined) this.presence.join(topic, subscriber, options.presence);
    return recovery;
  }

  #add(
    subscriber: Subscriber,
    topic: string,
    options: SubscribeOptions | undefined,
  ): Promise<Recovery> | undefined {
    if (this.keeps(topic)) {
      const sequencer = this.#sequencer!;
      if (!sequencer.has(topic)) this.#backplane?.subscribe(topic, true);
      this.#joined.add(subscriber, topic);
      return sequencer.add(
        topic,
        subscriber,
        options?.send ?? ((message) => subscriber.send(message)),
        options?.since,
      );
    }
    if (options?.since !== undefined) {
      throw new TypeError(
        `Topic "${topic}" keeps no history to replay from: name it in createApp({ history })`,
      );
    }
    if (this.#local.add(subscriber, topic)) this.#backplane?.subscribe(topic);
    this.#joined.add(subscriber, topic);
    return undefined;
  }

  /** Removes a subscriber from a topic. */
  unsubscribe(subscriber: Subscriber, topic: string): void {
    this.presence.leave(topic, subscriber);
    const sequencer = this.#sequencer;
    if (sequencer?.remove(topic, subscriber)) {
      this.#joined.remove(subscriber, topic);
      if (!sequencer.has(topic)) this.#backplane?.unsubscribe(topic);
      return;
    }
    const emptied = this.#local.remove(subscriber, topic);
    if (emptied === undefined) return;
    this.#joined.remove(subscriber, topic);
    if (emptied) this.#backplane?.unsubscribe(topic);
  }

  /** Removes a subscriber from every topic (its socket closed). */
  leave(subscriber: Subscriber): void {
    for (const topic of this.topicsOf(subscriber)) this.unsubscribe(subscriber, topic);
    this.#joined.drop(subscriber);
    this.#tags.drop(subscriber);
  }

  /** The topics a subscriber is in (its own record: a closing socket costs its topics, not the hub's). */
  topicsOf(subscriber: Subscriber): string[] {
    return this.#joined.of(subscriber);
  }

  /**
   * Sends a message to the other instances, then delivers it to this instance's subscribers (but
   * `except`): a burst to many local sockets must not hold the broker's copies back.
   */
  publish(topic: string, message: TopicMessage, except?: Subscriber): void {
    checkTopic(topic);
    this.stats.published++;
    if (this.keeps(topic)) {
      this.#sequencer!.publish(topic, message, except);
      return;
    }
    this.#backplane?.send(topic, message);
    this.#local.deliver(topic, message, except);
  }

  /** Waits for what is in flight to the broker, then disconnects the backplane. */
  close(): Promise<void> {
    this.presence.close();
    this.#sequencer?.close();
    return this.#backplane?.close() ?? Promise.resolve();
  }
}
