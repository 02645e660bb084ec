// Topics with a history (`createApp({ history })`): which topics keep one, how a position is written,
// what a store of histories does, and the in-process store of an app without a backplane.
//
// A position is `<epoch>:<seq>`: `seq` counts a topic's messages from 1 without holes, `epoch` names one
// life of the topic's history (one that expired, or that a broker lost, starts a new epoch, and a
// position of the old one can no longer be recovered from).
import type { TopicMessage } from "../runtime/runtime.ts";

/** Which topics keep a bounded history, so that subscribers can recover what they missed. */
export interface HistoryOptions {
  /**
   * The topics with a history: names, or prefixes ending in `*` (`"room:*"`), or a function. Other
   * topics are at most once, as without this option.
   */
  readonly topics: readonly string[] | ((topic: string) => boolean);
  /** How many of a topic's last messages are kept (at least). Default 1000. */
  readonly size?: number;
  /** How long a topic's history is kept after its last message, in seconds. Default 3600. */
  readonly ttl?: number;
}

/** The history's bounds, defaults applied (what a driver's `append` is given). */
export interface HistoryLimits {
  /** How many of a topic's last messages are kept (at least). */
  readonly size: number;
  /** How long a topic's history is kept after its last message, in seconds. */
  readonly ttl: number;
}

/** A message in a topic's history. */
export interface HistoryEntry {
  /** Its number in the topic (from 1, without holes within an epoch). */
  readonly seq: number;
  readonly message: TopicMessage;
  /** The instance that published it. */
  readonly from: string;
  /** The publisher's token for the socket to leave out (meaningful on that instance only). */
  readonly skip: number | undefined;
}

/** What a store read of a topic's history: its epoch (`""`: it has none), and the entries asked for. */
export interface HistoryRead {
  readonly epoch: string;
  /** After the position asked for when `epoch` is its epoch, else from the oldest kept. */
  readonly entries: readonly HistoryEntry[];
}

/** Where topics' histories are kept, and what numbers their messages. */
export interface HistoryStore {
  /**
   * Appends a message; it comes back, numbered, through the store's receiver, unless the store drops
   * it (then counted and reported by the store).
   */
  append(topic: string, message: TopicMessage, skip: number | undefined): void;
  /** Up to `limit` entries of a topic after `seq` of `epoch`. */
  read(topic: string, epoch: string | undefined, seq: number, limit: number): Promise<HistoryRead>;
}

/** A numbered message, as a store hands it to its receiver. */
export type HistoryReceiver = (topic: string, epoch: string, entry: HistoryEntry) => void;

/** The bounds of `options`, checked. */
export function historyLimits(options: HistoryOptions): HistoryLimits {
  const size = options.size ?? 1000;
  const ttl = options.ttl ?? 3600;
  if (!Number.isSafeInteger(size) || size < 1) throw new TypeError("history.size must be a positive integer");
  if (!Number.isSafeInteger(ttl) || ttl < 1)
    throw new TypeError("history.ttl must be a positive integer (seconds)");
  return { size, ttl };
}

/** Whether a topic keeps a history, by `options.topics`. */
export function historyMatcher(options: HistoryOptions): (topic: string) => boolean {
  const { topics } = options;
  if (typeof topics === "function") return topics;
  if (!Array.isArray(topics)) throw new TypeError("history.topics must be an array of topics or a function");
  const names = new Set(topics.filter((topic) => !topic.endsWith("*")));
  const prefixes = topics.filter((topic) => topic.endsWith("*")).map((topic) => topic.slice(0, -1));
  return (topic) => names.has(topic) || prefixes.some((prefix) => topic.startsWith(prefix));
}

/** A position's text. */
export function formatPosition(epoch: string, seq: number): string {
  return `${epoch}:${seq}`;
}

/** A position's epoch and number, or `undefined` when `text` is not a position. */
export function parsePosition(text: string): { epoch: string; seq: number } | undefined {
  if (typeof text !== "string" || text.length > 80) return undefined;
  const colon = text.lastIndexOf(":");
  if (colon < 1) return undefined;
  const digits = text.slice(colon + 1);
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  return { epoch: text.slice(0, colon), seq: Number(digits) };
}

/** A new epoch's name. */
export function newEpoch(): string {
  return crypto.randomUUID().slice(0, 8);
}

/** The histories of an app without a backplane: in memory, numbered as they are appended. */
export class MemoryHistory implements HistoryStore {
  readonly #limits: HistoryLimits;
  readonly #receive: HistoryReceiver;
  readonly #from: () => string;
  readonly #topics = new Map<
    string,
    { epoch: string; seq: number; entries: HistoryEntry[]; expires: number }
  >();

  constructor(limits: HistoryLimits, from: () => string, receive: HistoryReceiver) {
    this.#limits = limits;
    this.#from = from;
    this.#receive = receive;
  }

  append(topic: string, message: TopicMessage, skip: number | undefined): void {
    const now = Date.now();
    let kept = this.#topics.get(topic);
    if (kept === undefined || kept.expires < now) {
      kept = { epoch: newEpoch(), seq: 0, entries: [], expires: 0 };
      this.#topics.set(topic, kept);
    }
    kept.expires = now + this.#limits.ttl * 1000;
    const entry = { seq: ++kept.seq, message, from: this.#from(), skip };
    kept.entries.push(entry);
    // Trimmed in batches, so that appending stays O(1) amortised.
    if (kept.entries.length >= this.#limits.size * 1.25)
      kept.entries.splice(0, kept.entries.length - this.#limits.size);
    this.#sweep(now);
    this.#receive(topic, kept.epoch, entry);
  }

  read(topic: string, epoch: string | undefined, seq: number, limit: number): Promise<HistoryRead> {
    const kept = this.#topics.get(topic);
    if (kept === undefined || kept.expires < Date.now()) return Promise.resolve({ epoch: "", entries: [] });
    const after = epoch === kept.epoch ? seq : 0;
    const start = kept.entries.findIndex((entry) => entry.seq > after);
    return Promise.resolve({
      epoch: kept.epoch,
      entries: start < 0 ? [] : kept.entries.slice(start, start + limit),
    });
  }

  // Forgets expired histories, a few at a time.
  #sweep(now: number): void {
    let looked = 0;
    for (const [topic, kept] of this.#topics) {
      if (kept.expires < now) this.#topics.delete(topic);
      if (++looked >= 4) return;
    }
  }
}
