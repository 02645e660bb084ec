// Topics with a history, on one instance: their messages delivered in order, once, without holes.
//
// Every message of such a topic comes back from the store numbered (`history.ts`), the publisher's own
// included, so every instance delivers the same order. A number seen twice is skipped; a hole (the
// broker connection dropped, a subscription not yet back) is read from the history before what came
// after it; what the history no longer has is counted and reported. A subscriber joining with `since`
// gets what it missed from the history, then what arrived meanwhile.
import type { Recovery } from "../context/socket.ts";
import type { TopicMessage } from "../runtime/runtime.ts";
import type { PubSubStats } from "./driver.ts";
import {
  formatPosition,
  type HistoryEntry,
  type HistoryRead,
  type HistoryStore,
  parsePosition,
} from "./history.ts";
import { type Deliver, type Line, type Member, type Numbered, replay } from "./sequencer-replay.ts";

// How often a failing read of the history is tried again, and the first wait (doubled each time, up to
// 2 s): about 10 s in all, what a restarting broker takes to load a modest data set.
const READ_RETRIES = 8;
const READ_RETRY_MS = 100;
// A wait that does not keep the process alive (a closing app does not wait for a retry).
const pause = (ms: number) =>
  new Promise((resolve) => (setTimeout(resolve, ms) as { unref?: () => void }).unref?.());

/** What the sequencer needs from its hub. */
export interface SequencerHooks {
  /** How many entries one read asks for (the history's size). */
  readonly size: number;
  /** This instance's id. */
  instance(): string;
  /** The hub's counters: deliveries, and what could not be recovered. */
  readonly stats: PubSubStats;
  /** Where failures go. */
  error(message: string, error?: unknown): void;
}

/** The topics with a history that this instance's subscribers are in. */
export class Sequencer {
  readonly #hooks: SequencerHooks;
  readonly #lines = new Map<string, Line>();
  // The sockets to leave out of this instance's own messages, by token, until they come back.
  readonly #skips = new Map<number, object>();
  #nextSkip = 0;
  #closed = false;
  /** Where the topics' histories are kept (the backplane, or in memory). */
  store!: HistoryStore;

  constructor(hooks: SequencerHooks) {
    this.#hooks = hooks;
  }

  /**
   * Publishes: the message is delivered here too once it comes back numbered, in the order every
   * instance sees.
   */
  publish(topic: string, message: TopicMessage, except: object | undefined): void {
    let skip: number | undefined;
    if (except !== undefined) {
      skip = this.#nextSkip++;
      this.#skips.set(skip, except);
      // Tokens of messages that never came back (dropped) are forgotten, oldest first.
      if (this.#skips.size > 10_000) this.#skips.delete(this.#skips.keys().next().value!);
    }
    this.store.append(topic, message, skip);
  }

  /** The app closes: reads in progress are not tried again. */
  close(): void {
    this.#closed = true;
  }

  /** Whether a topic has subscribers here. */
  has(topic: string): boolean {
    return this.#lines.has(topic);
  }

  /**
   * Adds a subscriber; with `since` (a position it received), resolves once what it missed is
   * replayed, or a gap is known.
   */
  add(topic: string, subscriber: object, deliver: Deliver, since?: string): Promise<Recovery> | undefined {
    let line = this.#lines.get(topic);
    if (line === undefined) {
      line = { epoch: undefined, last: 0, busy: false, pending: [], members: new Map() };
      this.#lines.set(topic, line);
    }
    if (line.members.has(subscriber) || since === undefined) {
      if (!line.members.has(subscriber))
        line.members.set(subscriber, { deliver, held: undefined, replayed: undefined });
      return since === undefined ? undefined : Promise.resolve({ recovered: true, replayed: 0 });
    }
    const position = parsePosition(since);
    const member: Member = { deliver, held: position === undefined ? undefined : [], replayed: undefined };
    line.members.set(subscriber, member);
    if (position === undefined) return Promise.resolve({ recovered: false, replayed: 0, gap: "invalid" });
    const send = (epoch: string, entry: HistoryEntry) => this.#send(member, epoch, entry);
    return replay(this.store, this.#hooks.size, topic, line, member, position, send);
  }

  /** Removes a subscriber; `false` when it was not in the topic. */
  remove(topic: string, subscriber: object): boolean {
    const line = this.#lines.get(topic);
    if (line === undefined || !line.members.delete(subscriber)) return false;
    if (line.members.size === 0) this.#lines.delete(topic);
    return true;
  }

  /** A numbered message from the store. */
  receive(topic: string, epoch: string, entry: HistoryEntry): void {
    const line = this.#lines.get(topic);
    if (line === undefined) return;
    if (line.busy) line.pending.push({ epoch, entry });
    else this.#accept(topic, line, { epoch, entry }, false);
  }

  /** Reads what each topic missed (after the broker connection came back). */
  resync(): void {
    for (const [topic, line] of this.#lines) {
      if (line.epoch !== undefined && !line.busy) void this.#catchUp(topic, line);
    }
  }

  // `settled`: the history was just read, so a hole left is what it no longer has.
  #accept(topic: string, line: Line, numbered: Numbered, settled: boolean): void {
    const { epoch, entry } = numbered;
    if (line.epoch !== epoch) {
      if (line.epoch === undefined) line.last = entry.seq - 1;
      else if (!settled) {
        // Another epoch: newer (the history restarted) or older (a late message): a read tells.
        line.pending.push(numbered);
        void this.#catchUp(topic, line);
        return;
      } else {
        // The history restarted (expired, or the broker lost it): what came before is unknown.
        this.#missed(topic, undefined);
        line.last = 0;
      }
      line.epoch = epoch;
    }
    if (entry.seq <= line.last) return;
    if (entry.seq > line.last + 1) {
      if (!settled) {
        line.pending.push(numbered);
        void this.#catchUp(topic, line);
        return;
      }
      this.#missed(topic, entry.seq - line.last - 1);
    }
    line.last = entry.seq;
    this.#deliver(line, numbered);
  }

  // Reads the history from where the line is, and delivers in order what was waiting. A message that
  // arrived before a read was sent is in the history by then if the history still has it, so a hole
  // before it is counted as missed; one that arrived during the read may be newer than what the read
  // saw, so a hole before it is read again. A broker coming back (reconnecting, loading its data) fails
  // reads for a while: they are tried again, with what arrives meanwhile waiting, up to `READ_RETRIES`
  // times or `size` messages waiting.
  async #catchUp(topic: string, line: Line): Promise<void> {
    line.busy = true;
    const { size } = this.#hooks;
    let failures = 0;
    try {
      for (;;) {
        let before = line.pending.length;
        let read: HistoryRead;
        try {
          read = await this.store.read(topic, line.epoch, line.last, size);
        } catch (error) {
          if (++failures > READ_RETRIES || line.pending.length >= size || this.#closed) throw error;
          await pause(Math.min(READ_RETRY_MS * 2 ** (failures - 1), 2000));
          if (!this.#current(topic, line) || this.#closed) return;
          continue;
        }
        if (!this.#current(topic, line)) return;
        failures = 0;
        // The history moved to another epoch: what arrived of the line's own is delivered first.
        if (read.epoch !== "" && line.epoch !== undefined && read.epoch !== line.epoch)
          before = this.#drainEpoch(topic, line, before);
        for (const entry of read.entries) this.#accept(topic, line, { epoch: read.epoch, entry }, true);
        if (read.entries.length >= size) continue;
        for (const numbered of line.pending.splice(0, before)) {
          // Of an epoch the history had already left when it was read: older than what was delivered.
          if (read.epoch !== "" && numbered.epoch !== read.epoch) {
            this.#missed(topic, 1);
            continue;
          }
          this.#accept(topic, line, numbered, true);
        }
        if (!this.#follow(topic, line)) break;
      }
    } catch (error) {
      if (this.#current(topic, line)) this.#missed(topic, undefined, error);
    } finally {
      line.busy = false;
      // What waited is delivered, unless the topic was left meanwhile (nothing is missed then).
      const waiting = line.pending.splice(0);
      if (this.#current(topic, line))
        for (const numbered of waiting) this.#accept(topic, line, numbered, true);
    }
  }

  // Whether the line is still the topic's (not left, or left and joined again, during a read).
  #current(topic: string, line: Line): boolean {
    return this.#lines.get(topic) === line;
  }

  // Delivers the first `before` waiting messages of the line's epoch, in order; returns how many of those
  // `before` are left waiting (of other epochs).
  #drainEpoch(topic: string, line: Line, before: number): number {
    const own = line.epoch;
    const others: Numbered[] = [];
    for (const numbered of line.pending.splice(0, before)) {
      if (numbered.epoch === own) this.#accept(topic, line, numbered, true);
      else others.push(numbered);
    }
    line.pending.unshift(...others);
    return others.length;
  }

  // Delivers the waiting messages that follow on; `true` when one leaves a hole, or is of another epoch
  // (newer, or older: the next read tells), and waits for that read with those after it.
  #follow(topic: string, line: Line): boolean {
    while (line.pending.length > 0) {
      const next = line.pending[0]!;
      if (line.epoch !== undefined && (next.epoch !== line.epoch || next.entry.seq > line.last + 1))
        return true;
      line.pending.shift();
      this.#accept(topic, line, next, true);
    }
    return false;
  }

  // The socket an instance's own message leaves out (once).
  #skipped(entry: HistoryEntry): object | undefined {
    if (entry.skip === undefined || entry.from !== this.#hooks.instance()) return undefined;
    const subscriber = this.#skips.get(entry.skip);
    this.#skips.delete(entry.skip);
    return subscriber;
  }

  #missed(topic: string, count: number | undefined, cause?: unknown): void {
    this.#hooks.stats.missed += count ?? 1;
    this.#hooks.error(
      `[portico] topic "${topic}" missed ${count ?? "an unknown number of"} message(s) its history no longer has`,
      cause,
    );
  }

  #deliver(line: Line, numbered: Numbered): void {
    const except = this.#skipped(numbered.entry);
    for (const [subscriber, member] of line.members) {
      if (subscriber === except) continue;
      if (member.held !== undefined) member.held.push(numbered);
      else if (member.replayed === undefined) this.#send(member, numbered.epoch, numbered.entry);
      else if (member.replayed.epoch !== numbered.epoch || numbered.entry.seq > member.replayed.seq) {
        member.replayed = undefined;
        this.#send(member, numbered.epoch, numbered.entry);
      }
    }
  }

  #send(member: Member, epoch: string, entry: HistoryEntry): void {
    try {
      if (member.deliver(entry.message, formatPosition(epoch, entry.seq)) !== false)
        this.#hooks.stats.delivered++;
    } catch (error) {
      this.#hooks.error(
        "[portico] a topic message could not be delivered to a subscriber of this instance",
        error,
      );
    }
  }
}
