// Topics: which local sockets listen to what, and the backplane that carries messages between instances.

import type { NativeTopics, TopicMessage } from "../runtime/runtime.ts";

/** What receives a topic's messages locally: a websocket. */
export interface Subscriber {
  send(data: string | Uint8Array): void;
  /** The runtime's own topics for this socket, where it has them (Bun's). */
  readonly native?: NativeTopics | undefined;
}

// A topic's local subscribers: those the hub sends to itself, and those the runtime delivers to.
interface Members {
  readonly own: Set<Subscriber>;
  readonly native: Set<Subscriber>;
}

/**
 * A backplane between instances (`createApp({ pubsub })`): Redis, NATS, … Given framed bytes; delivery
 * is at most once. The hub subscribes to a topic while it has a local subscriber, and only then.
 */
export interface PubSubDriver {
  /** Starts: frames from other instances go to `receive`; failures (the broker gone…) to `report`. */
  start(receive: (topic: string, frame: Uint8Array) => void, report: (error: unknown) => void): void;
  /** Receive a topic's frames (its first local subscriber arrived). */
  subscribe(topic: string): void | Promise<void>;
  /** Stop receiving a topic (its last local subscriber left). */
  unsubscribe(topic: string): void | Promise<void>;
  /** Sends a frame to the other instances; resolves `false` (dropped) when the broker cannot take it. */
  publish(topic: string, frame: Uint8Array): boolean | Promise<boolean>;
  /** Disconnects. */
  close(): Promise<void>;
}

/** What a hub counts (for monitoring): messages published, delivered, dropped by the backplane. */
export interface PubSubStats {
  /** Messages published on this instance. */
  published: number;
  /** Messages handed to this instance's sockets. */
  delivered: number;
  /** Messages the backplane could not take (the broker unreachable): never seen by other instances. */
  dropped: number;
  /** Messages received from other instances. */
  received: number;
}

const VERSION = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The topics of one app: local delivery to subscribed sockets, and, with a driver, to other instances.
 * A frame carries a version, the sending instance's id (so its own messages coming back are not
 * delivered twice) and whether the message is text or binary.
 */
export class TopicHub {
  readonly #topics = new Map<string, Members>();
  readonly #driver: PubSubDriver | undefined;
  readonly #report: (error: unknown) => void;
  // Each subscriber's topics, so that leaving costs its own topics only.
  readonly #joined = new WeakMap<Subscriber, Set<string>>();
  readonly #reportLocal: (error: unknown) => void;
  #instance: string | undefined;
  /** Counters. */
  readonly stats: PubSubStats = { published: 0, delivered: 0, dropped: 0, received: 0 };

  /**
   * `report` gets what failed, and where: the backplane (the broker gone…) or the delivery to a local
   * socket (workerd refuses I/O on another request's socket).
   */
  constructor(
    driver: PubSubDriver | undefined,
    report: (error: unknown, where: "backplane" | "local") => void,
  ) {
    this.#driver = driver;
    this.#report = (error) => report(error, "backplane");
    this.#reportLocal = (error) => report(error, "local");
    driver?.start((topic, frame) => this.#receive(topic, frame), this.#report);
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
      this.#call(() => this.#driver?.subscribe(topic));
    }
    if (subscriber.native === undefined) members.own.add(subscriber);
    else if (!members.native.has(subscriber)) {
      members.native.add(subscriber);
      subscriber.native.subscribe(topic);
    }
    const joined = this.#joined.get(subscriber);
    if (joined === undefined) this.#joined.set(subscriber, new Set([topic]));
    else joined.add(topic);
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
    this.#joined.get(subscriber)?.delete(topic);
    if (members.own.size > 0 || members.native.size > 0) return;
    this.#topics.delete(topic);
    this.#call(() => this.#driver?.unsubscribe(topic));
  }

  /** Removes a subscriber from every topic (its socket closed). */
  leave(subscriber: Subscriber): void {
    for (const topic of this.topicsOf(subscriber)) this.unsubscribe(subscriber, topic);
    this.#joined.delete(subscriber);
  }

  /** The topics a subscriber is in (its own record: a closing socket costs its topics, not the hub's). */
  topicsOf(subscriber: Subscriber): string[] {
    const joined = this.#joined.get(subscriber);
    return joined === undefined ? [] : [...joined];
  }

  /** Delivers to this instance's subscribers (but `except`) and sends it to the other instances. */
  publish(topic: string, message: TopicMessage, except?: Subscriber): void {
    checkTopic(topic);
    this.stats.published++;
    this.#deliver(topic, message, except);
    const driver = this.#driver;
    if (driver === undefined) return;
    const frame = encodeFrame(this.instance, message);
    try {
      const sent = driver.publish(topic, frame);
      if (sent instanceof Promise) {
        sent.then(
          (ok) => {
            if (!ok) this.stats.dropped++;
          },
          (error: unknown) => {
            this.stats.dropped++;
            this.#report(error);
          },
        );
      } else if (!sent) this.stats.dropped++;
    } catch (error) {
      this.stats.dropped++;
      this.#report(error);
    }
  }

  /** Disconnects the backplane. */
  close(): Promise<void> {
    return this.#driver?.close() ?? Promise.resolve();
  }

  #receive(topic: string, frame: Uint8Array): void {
    const decoded = decodeFrame(frame);
    if (decoded === undefined || decoded.from === this.instance) return;
    this.stats.received++;
    this.#deliver(topic, decoded.message, undefined);
  }

  #deliver(topic: string, message: TopicMessage, except: Subscriber | undefined): void {
    const members = this.#topics.get(topic);
    if (members === undefined) return;
    for (const member of members.own) {
      if (member === except) continue;
      // One subscriber's failure (workerd refuses I/O on another request's socket) stops no other.
      try {
        member.send(message);
        this.stats.delivered++;
      } catch (error) {
        this.#reportLocal(error);
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
      this.#reportLocal(error);
    }
  }

  #call(action: () => void | Promise<void> | undefined): void {
    try {
      const result = action();
      if (result instanceof Promise) result.catch(this.#report);
    } catch (error) {
      this.#report(error);
    }
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function checkTopic(topic: string): void {
  if (typeof topic !== "string" || topic === "" || topic.length > 256 || hasControlCharacter(topic)) {
    throw new TypeError("A topic is a string of 1 to 256 characters without control characters");
  }
}

// A frame: one header line of JSON ({ v, from, binary }), "\n", then the message's bytes.
function encodeFrame(from: string, message: TopicMessage): Uint8Array {
  const binary = typeof message !== "string";
  const head = encoder.encode(`${JSON.stringify({ v: VERSION, from, binary })}\n`);
  const body = binary ? message : encoder.encode(message);
  const frame = new Uint8Array(head.byteLength + body.byteLength);
  frame.set(head);
  frame.set(body, head.byteLength);
  return frame;
}

function decodeFrame(frame: Uint8Array): { from: string; message: TopicMessage } | undefined {
  const newline = frame.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const head = JSON.parse(decoder.decode(frame.subarray(0, newline))) as {
      v?: unknown;
      from?: unknown;
      binary?: unknown;
    };
    if (head.v !== VERSION || typeof head.from !== "string") return undefined;
    const body = frame.slice(newline + 1);
    return { from: head.from, message: head.binary === true ? body : decoder.decode(body) };
  } catch {
    return undefined;
  }
}
