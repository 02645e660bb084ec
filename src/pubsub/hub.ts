// Topics: which local sockets listen to what; the backplane (`backplane.ts`) carries them between instances.

import type { NativeTopics, TopicMessage } from "../runtime/runtime.ts";
import { Backplane, type PubSubDriver, type PubSubStats, type TopicHealth } from "./backplane.ts";
import { type ControlCommand, type Controlled, readCommand, Tags } from "./control.ts";
import { CONTROL_TOPIC, checkTopic } from "./frame.ts";

export type { PubSubDriver, PubSubStats, TopicHealth };

/** What receives a topic's messages locally: a websocket. */
export interface Subscriber {
  /** Sends a message; returns `false` when it was not delivered (the socket closing, or closed for being slow). */
  send(data: string | Uint8Array): unknown;
  /** The runtime's own topics for this socket, where it has them (Bun's). */
  readonly native?: NativeTopics | undefined;
}

// A topic's local subscribers: those the hub sends to itself, and those the runtime delivers to.
interface Members {
  readonly own: Set<Subscriber>;
  readonly native: Set<Subscriber>;
}

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
  readonly #topics = new Map<string, Members>();
  readonly #backplane: Backplane | undefined;
  // Each subscriber's topics, so that leaving costs its own topics only: one topic as itself, a few in
  // an array, many in a set. Most sockets are in one or two, and a `Set` each cost ~200 B of memory
  // per idle socket.
  readonly #joined = new WeakMap<Subscriber, string | string[] | Set<string>>();
  readonly #log: HubLog;
  readonly #tags = new Tags();
  readonly #created = Date.now();
  #instance: string | undefined;
  /** Counters. */
  readonly stats: PubSubStats = { published: 0, delivered: 0, dropped: 0, received: 0 };

  constructor(driver: PubSubDriver | undefined, log: HubLog) {
    this.#log = log;
    this.#backplane =
      driver === undefined
        ? undefined
        : new Backplane(
            driver,
            this.stats,
            () => this.instance,
            (topic, message) => {
              if (topic === CONTROL_TOPIC) return this.#remote(message);
              this.stats.received++;
              this.#deliver(topic, message, undefined);
            },
            log,
          );
    // Commands from other instances are heard for the hub's whole life.
    this.#backplane?.subscribe(CONTROL_TOPIC);
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

  /** Adds a subscriber to a topic. */
  subscribe(subscriber: Subscriber, topic: string): void {
    checkTopic(topic);
    let members = this.#topics.get(topic);
    if (members === undefined) {
      members = { own: new Set(), native: new Set() };
      this.#topics.set(topic, members);
      this.#backplane?.subscribe(topic);
    }
    if (subscriber.native === undefined) members.own.add(subscriber);
    else if (!members.native.has(subscriber)) {
      members.native.add(subscriber);
      subscriber.native.subscribe(topic);
    }
    const joined = this.#joined.get(subscriber);
    if (joined === undefined) this.#joined.set(subscriber, topic);
    else if (typeof joined === "string") {
      if (joined !== topic) this.#joined.set(subscriber, [joined, topic]);
    } else if (Array.isArray(joined)) {
      if (joined.includes(topic)) return;
      if (joined.length < 8) joined.push(topic);
      else this.#joined.set(subscriber, new Set([...joined, topic]));
    } else joined.add(topic);
  }

  /** Removes a subscriber from a topic. */
  unsubscribe(subscriber: Subscriber, topic: string): void {
    const members = this.#topics.get(topic);
    if (members === undefined) return;
    if (members.native.delete(subscriber)) {
      try {
        subscriber.native?.unsubscribe(topic);
      } catch {
        // The runtime already dropped a closed socket's topics.
      }
    } else if (!members.own.delete(subscriber)) return;
    this.#forget(subscriber, topic);
    if (members.own.size > 0 || members.native.size > 0) return;
    this.#topics.delete(topic);
    this.#backplane?.unsubscribe(topic);
  }

  /** Removes a subscriber from every topic (its socket closed). */
  leave(subscriber: Subscriber): void {
    for (const topic of this.topicsOf(subscriber)) this.unsubscribe(subscriber, topic);
    this.#joined.delete(subscriber);
    this.#tags.drop(subscriber);
  }

  /** The topics a subscriber is in (its own record: a closing socket costs its topics, not the hub's). */
  topicsOf(subscriber: Subscriber): string[] {
    const joined = this.#joined.get(subscriber);
    return joined === undefined ? [] : typeof joined === "string" ? [joined] : [...joined];
  }

  #forget(subscriber: Subscriber, topic: string): void {
    const joined = this.#joined.get(subscriber);
    if (joined === topic) this.#joined.delete(subscriber);
    else if (Array.isArray(joined)) {
      const at = joined.indexOf(topic);
      if (at >= 0) joined.splice(at, 1);
    } else if (joined instanceof Set) joined.delete(topic);
  }

  /**
   * Sends a message to the other instances, then delivers it to this instance's subscribers (but
   * `except`): a burst to many local sockets must not hold the broker's copies back.
   */
  publish(topic: string, message: TopicMessage, except?: Subscriber): void {
    checkTopic(topic);
    this.stats.published++;
    this.#backplane?.send(topic, message);
    this.#deliver(topic, message, except);
  }

  /** Waits for what is in flight to the broker, then disconnects the backplane. */
  close(): Promise<void> {
    return this.#backplane?.close() ?? Promise.resolve();
  }

  #deliver(topic: string, message: TopicMessage, except: Subscriber | undefined): void {
    const members = this.#topics.get(topic);
    if (members === undefined) return;
    for (const member of members.own) {
      if (member === except) continue;
      // One subscriber's failure (workerd refuses I/O on another request's socket) stops no other.
      try {
        if (member.send(message) !== false) this.stats.delivered++;
      } catch (error) {
        this.#log.error(
          "[portico] a topic message could not be delivered to a subscriber of this instance",
          error,
        );
      }
    }
    // The runtime fans out to its own sockets in one call: from the sender's socket when it has native
    // topics (that leaves the sender out), else through any of them, to all.
    const size = members.native.size;
    if (size === 0) return;
    const [first] = members.native;
    try {
      if (except?.native !== undefined) {
        except.native.publish(topic, message);
        this.stats.delivered += members.native.has(except) ? size - 1 : size;
      } else {
        first!.native!.publishAll(topic, message);
        this.stats.delivered += size;
      }
    } catch (error) {
      this.#log.error(
        "[portico] a topic message could not be delivered to a subscriber of this instance",
        error,
      );
    }
  }
}
