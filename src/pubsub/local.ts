// The at-most-once topics of one instance (`hub.ts`): who listens here, and the fan-out to them. A
// topic's subscribers are those Portico sends to itself, and those the runtime delivers to (Bun's own
// topics: one call fans a message out).
import type { Broadcast, NativeTopics, TopicMessage } from "../runtime/runtime.ts";

/** What receives a topic's messages locally: a websocket. */
export interface Subscriber {
  /** Sends a message; returns `false` when it was not delivered (the socket closing, or closed for being slow). */
  send(data: string | Uint8Array): unknown;
  /** Sends a message that goes to many subscribers (the runtime may prepare its frame once). */
  broadcast?(broadcast: Broadcast): unknown;
  /** The runtime's own topics for this socket, where it has them (Bun's). */
  readonly native?: NativeTopics | undefined;
}

interface Members {
  readonly own: Set<Subscriber>;
  readonly native: Set<Subscriber>;
}

const FAILED = "[portico] a topic message could not be delivered to a subscriber of this instance";

/** The local subscribers of the topics without a history. */
export class LocalTopics {
  readonly #topics = new Map<string, Members>();
  readonly #delivered: (count: number) => void;
  readonly #error: (message: string, error: unknown) => void;

  constructor(delivered: (count: number) => void, error: (message: string, error: unknown) => void) {
    this.#delivered = delivered;
    this.#error = error;
  }

  /** Adds a subscriber; `true` when it is the topic's first here. */
  add(subscriber: Subscriber, topic: string): boolean {
    let members = this.#topics.get(topic);
    const first = members === undefined;
    if (members === undefined) {
      members = { own: new Set(), native: new Set() };
      this.#topics.set(topic, members);
    }
    if (subscriber.native === undefined) members.own.add(subscriber);
    else if (!members.native.has(subscriber)) {
      members.native.add(subscriber);
      subscriber.native.subscribe(topic);
    }
    return first;
  }

  /** Removes a subscriber: `undefined` when it was not in the topic, else whether the topic is now empty here. */
  remove(subscriber: Subscriber, topic: string): boolean | undefined {
    const members = this.#topics.get(topic);
    if (members === undefined) return undefined;
    if (members.native.delete(subscriber)) {
      try {
        subscriber.native?.unsubscribe(topic);
      } catch {
        // The runtime already dropped a closed socket's topics.
      }
    } else if (!members.own.delete(subscriber)) return undefined;
    if (members.own.size > 0 || members.native.size > 0) return false;
    this.#topics.delete(topic);
    return true;
  }

  /** Delivers a message to the topic's subscribers here, but `except`. */
  deliver(topic: string, message: TopicMessage, except: Subscriber | undefined): void {
    const members = this.#topics.get(topic);
    if (members === undefined) return;
    const broadcast: Broadcast = { data: message };
    let delivered = 0;
    for (const member of members.own) {
      if (member === except) continue;
      // One subscriber's failure (workerd refuses I/O on another request's socket) stops no other.
      try {
        const sent = member.broadcast === undefined ? member.send(message) : member.broadcast(broadcast);
        if (sent !== false) delivered++;
      } catch (error) {
        this.#error(FAILED, error);
      }
    }
    // The runtime fans out to its own sockets in one call: from the sender's socket when it has native
    // topics (that leaves the sender out), else through any of them, to all.
    const size = members.native.size;
    if (size > 0) {
      const [first] = members.native;
      try {
        if (except?.native !== undefined) {
          except.native.publish(topic, message);
          delivered += members.native.has(except) ? size - 1 : size;
        } else {
          first!.native!.publishAll(topic, message);
          delivered += size;
        }
      } catch (error) {
        this.#error(FAILED, error);
      }
    }
    this.#delivered(delivered);
  }
}
