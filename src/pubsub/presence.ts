// Presence: who is in a topic, on every instance (`socket.subscribe(topic, { presence })`).
//
// Each instance owns its own members and tells the others, on the topic's presence channel (a reserved
// topic, `\u0000presence:<topic>`): a join, a leave, and every `heartbeat` ms that it is alive and how
// many it has. The others keep a copy per instance; a copy whose count disagrees is asked for again
// (`sync`: every instance answers with its `state`), and one not heard from for three heartbeats (the
// instance died) is dropped, its members leaving. An instance follows a topic's presence while it has
// members in it or listeners on it.
import type { TopicMessage } from "../runtime/runtime.ts";

/** A member of a topic's presence: its id (unique across instances) and the data its app gave. */
export interface PresenceMember {
  /** Unique across instances: `<instance>.<n>`, one per socket and topic. */
  readonly id: string;
  /** What the socket joined with (`{ presence: data }`), as JSON. */
  readonly data: unknown;
}

/** Who is in a topic, on every instance (`app.presence(topic)`). */
export interface PresenceState {
  /** How many members (sockets: a user on two tabs counts twice). */
  readonly count: number;
  /** Each member, this instance's first. */
  readonly members: readonly PresenceMember[];
}

/** A member joined or left a topic, on any instance (`app.onPresence`). */
export interface PresenceEvent extends PresenceMember {
  /** Whether the member joined or left (left includes an instance that died). */
  readonly type: "join" | "leave";
  /** The topic. */
  readonly topic: string;
}

/** How presence is kept (`createApp({ presence })`). */
export interface PresenceOptions {
  /**
   * How often an instance says it is alive, in ms; one not heard from for three heartbeats is gone,
   * and its members leave. Default 5000.
   */
  readonly heartbeat?: number;
}

/** The reserved topic that carries a topic's presence (an app topic cannot have a control character). */
export const PRESENCE_PREFIX = "\u0000presence:";

type Message =
  | { op: "join"; id: string; data: unknown }
  | { op: "leave"; id: string }
  | { op: "alive"; count: number }
  | { op: "sync" }
  | { op: "state"; members: [string, unknown][] };

/** What presence needs from its hub: the backplane (when there is one), and this instance's id. */
export interface PresenceLink {
  /** Whether there are other instances (a backplane): without, nothing is waited for. */
  readonly shared: boolean;
  instance(): string;
  send(topic: string, message: string): void;
  /** Settles once the broker confirmed the subscription (where the driver says). */
  subscribe(topic: string): void | Promise<void>;
  unsubscribe(topic: string): void;
  error(message: string, error?: unknown): void;
}

interface Copy {
  readonly members: Map<string, unknown>;
  heard: number;
}

interface Followed {
  // Settles once the other instances had time to answer the `sync` sent when following began.
  readonly synced: Promise<void>;
  // This instance's members, by subscriber.
  readonly own: Map<object, PresenceMember>;
  // The other instances' members, by instance.
  readonly others: Map<string, Copy>;
  readonly listeners: Set<(event: PresenceEvent) => void>;
}

/** The presence of the topics this instance follows. */
export class Presence {
  readonly #link: PresenceLink;
  readonly #heartbeat: number;
  readonly #topics = new Map<string, Followed>();
  #next = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(link: PresenceLink, options: PresenceOptions = {}) {
    const heartbeat = options.heartbeat ?? 5000;
    if (!Number.isFinite(heartbeat) || heartbeat < 10)
      throw new TypeError("presence.heartbeat must be at least 10 (ms)");
    this.#link = link;
    this.#heartbeat = heartbeat;
  }

  /** A subscriber joins a topic's presence with its data (JSON). */
  join(topic: string, subscriber: object, data: unknown): void {
    const followed = this.#follow(topic);
    if (followed.own.has(subscriber)) return;
    const member = {
      id: `${this.#link.instance()}.${this.#next++}`,
      data: JSON.parse(JSON.stringify(data ?? null)),
    };
    followed.own.set(subscriber, member);
    this.#emit(topic, followed, "join", member);
    this.#send(topic, { op: "join", id: member.id, data: member.data });
  }

  /** A subscriber leaves a topic's presence (it unsubscribed or closed). */
  leave(topic: string, subscriber: object): void {
    const followed = this.#topics.get(topic);
    const member = followed?.own.get(subscriber);
    if (followed === undefined || member === undefined) return;
    followed.own.delete(subscriber);
    this.#emit(topic, followed, "leave", member);
    this.#send(topic, { op: "leave", id: member.id });
    this.#release(topic, followed);
  }

  /** Who is in a topic now, as far as this instance knows. */
  state(topic: string): PresenceState {
    const followed = this.#topics.get(topic);
    if (followed === undefined) return { count: 0, members: [] };
    const members = [...followed.own.values()];
    for (const copy of followed.others.values()) {
      for (const [id, data] of copy.members) members.push({ id, data });
    }
    return { count: members.length, members };
  }

  /**
   * Who is in a topic, on every instance: following it first if this instance does not (the others
   * are asked, and have a quarter of a second, at most a heartbeat, to answer). A topic asked about
   * stays followed for a heartbeat.
   */
  async ask(topic: string): Promise<PresenceState> {
    const followed = this.#follow(topic);
    const keep = (): void => {};
    followed.listeners.add(keep);
    await followed.synced;
    const timer = setTimeout(() => {
      if (followed.listeners.delete(keep)) this.#release(topic, followed);
    }, this.#heartbeat);
    (timer as { unref?: () => void }).unref?.();
    return this.state(topic);
  }

  /** Calls `listener` with each join and leave of a topic, on any instance; returns the unsubscribe. */
  listen(topic: string, listener: (event: PresenceEvent) => void): () => void {
    const followed = this.#follow(topic);
    followed.listeners.add(listener);
    return () => {
      if (followed.listeners.delete(listener)) this.#release(topic, followed);
    };
  }

  /** A message on a presence channel, from another instance. */
  receive(channel: string, from: string, text: TopicMessage): void {
    const topic = channel.slice(PRESENCE_PREFIX.length);
    const followed = this.#topics.get(topic);
    const message = read(text);
    if (followed === undefined || message === undefined) return;
    if (message.op === "sync") {
      if (followed.own.size > 0) this.#send(topic, this.#stateOf(followed));
      return;
    }
    let copy = followed.others.get(from);
    if (copy === undefined) {
      copy = { members: new Map(), heard: Date.now() };
      followed.others.set(from, copy);
    }
    copy.heard = Date.now();
    switch (message.op) {
      case "join":
        if (!copy.members.has(message.id)) {
          copy.members.set(message.id, message.data);
          this.#emit(topic, followed, "join", { id: message.id, data: message.data });
        }
        break;
      case "leave":
        if (copy.members.has(message.id)) {
          const data = copy.members.get(message.id);
          copy.members.delete(message.id);
          this.#emit(topic, followed, "leave", { id: message.id, data });
        }
        break;
      case "alive":
        if (message.count !== copy.members.size) this.#send(topic, { op: "sync" });
        break;
      case "state":
        this.#replace(topic, followed, copy, new Map(message.members));
        break;
    }
    if (copy.members.size === 0) followed.others.delete(from);
  }

  /** Stops: the heartbeat, and what is followed. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #follow(topic: string): Followed {
    let followed = this.#topics.get(topic);
    if (followed !== undefined) return followed;
    const wait = Math.min(250, this.#heartbeat);
    // The others are asked once this instance hears the topic: over Redis, the question goes out on
    // another connection than the subscription, and answers that come before it are lost.
    const subscribed = Promise.resolve(this.#link.subscribe(PRESENCE_PREFIX + topic));
    followed = {
      synced: this.#link.shared
        ? subscribed.then(() => {
            this.#send(topic, { op: "sync" });
            return new Promise((resolve) => setTimeout(resolve, wait));
          })
        : Promise.resolve(),
      own: new Map(),
      others: new Map(),
      listeners: new Set(),
    };
    this.#topics.set(topic, followed);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#beat(), this.#heartbeat);
      // The heartbeat alone does not keep a process alive (Node, Bun; Deno's timers are numbers).
      (this.#timer as { unref?: () => void }).unref?.();
    }
    return followed;
  }

  #release(topic: string, followed: Followed): void {
    if (followed.own.size > 0 || followed.listeners.size > 0) return;
    this.#topics.delete(topic);
    this.#link.unsubscribe(PRESENCE_PREFIX + topic);
    if (this.#topics.size === 0) this.close();
  }

  // Every heartbeat: say who is here, and drop the instances not heard from for three.
  #beat(): void {
    const now = Date.now();
    for (const [topic, followed] of this.#topics) {
      if (followed.own.size > 0) this.#send(topic, { op: "alive", count: followed.own.size });
      for (const [instance, copy] of followed.others) {
        if (now - copy.heard <= 3 * this.#heartbeat) continue;
        followed.others.delete(instance);
        this.#replace(topic, followed, copy, new Map());
      }
    }
  }

  #replace(topic: string, followed: Followed, copy: Copy, members: Map<string, unknown>): void {
    for (const [id, data] of copy.members) {
      if (!members.has(id)) this.#emit(topic, followed, "leave", { id, data });
    }
    for (const [id, data] of members) {
      if (!copy.members.has(id)) this.#emit(topic, followed, "join", { id, data });
    }
    copy.members.clear();
    for (const [id, data] of members) copy.members.set(id, data);
  }

  #stateOf(followed: Followed): Message {
    return { op: "state", members: [...followed.own.values()].map((member) => [member.id, member.data]) };
  }

  #send(topic: string, message: Message): void {
    this.#link.send(PRESENCE_PREFIX + topic, JSON.stringify(message));
  }

  #emit(topic: string, followed: Followed, type: "join" | "leave", member: PresenceMember): void {
    for (const listener of followed.listeners) {
      try {
        listener({ type, topic, id: member.id, data: member.data });
      } catch (error) {
        this.#link.error("[portico] a presence listener failed", error);
      }
    }
  }
}

// A presence message from another instance, or `undefined` when it is not one.
function read(text: TopicMessage): Message | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const message = JSON.parse(text) as Partial<Record<string, unknown>>;
    switch (message.op) {
      case "join":
        return typeof message.id === "string"
          ? { op: "join", id: message.id, data: message.data }
          : undefined;
      case "leave":
        return typeof message.id === "string" ? { op: "leave", id: message.id } : undefined;
      case "alive":
        return typeof message.count === "number" ? { op: "alive", count: message.count } : undefined;
      case "sync":
        return { op: "sync" };
      case "state":
        return Array.isArray(message.members) &&
          message.members.every((member) => Array.isArray(member) && typeof member[0] === "string")
          ? { op: "state", members: message.members as [string, unknown][] }
          : undefined;
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
