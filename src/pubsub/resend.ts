// Appends to a broker-kept history (Redis, NATS JetStream), sent in order and applied once.
//
// An append whose connection drops before the answer may or may not have been applied. It is sent
// again when the connection is back, with every append after it, in order, once none is in flight;
// the broker recognises one it already applied (by the publisher's id and counter) and skips it. So a
// broker restart loses and repeats nothing. After a failure the first append waiting goes alone, and
// the others follow once it went through: a broker that is coming back (loading its data) refuses
// them all until it is ready, and one that became ready between two of them would apply the later one
// only. An append the broker refused (an answer: it was not applied) is sent again under a new counter,
// since the broker may have applied a later one meanwhile and would take the old counter for a repeat.
// Written once for every driver that keeps a history.

// How often an append is sent before it fails, and the first wait before an append a ready connection
// refused is sent again (doubled each time, up to 2 s): about 10 s in all.
const MAX_ATTEMPTS = 8;
const RETRY_MS = 100;

interface Pending {
  readonly build: (counter: number) => () => Promise<unknown>;
  send: () => Promise<unknown>;
  readonly done: (ok: boolean) => void;
  readonly fail: (error: unknown) => void;
  inFlight: boolean;
  attempts: number;
  // An attempt went without an answer (the connection dropped): it may have been applied, so it keeps
  // its counter for the broker to recognise.
  inDoubt: boolean;
}

/** What an {@link OrderedAppends} needs from its driver. */
export interface AppendChannel {
  /** Whether the connection can take a command now. */
  ready(): boolean;
  /** Whether a failure is the broker's answer (final), not the connection's (sent again). */
  final(error: unknown): boolean;
  /** Whether a failure that is sent again was the broker's refusal (not applied), not a lost answer. */
  refused?(error: unknown): boolean;
}

/** The appends of one publisher, in the order they were made, until each is answered. */
export class OrderedAppends {
  // Each publisher has an id; each of its appends a counter, from 1, in order.
  readonly publisher: string = crypto.randomUUID();
  readonly #channel: AppendChannel;
  readonly #unanswered = new Map<number, Pending>();
  // An append failed: the ones after it wait until it is sent again and goes through.
  #held = false;
  #counter = 0;

  constructor(channel: AppendChannel) {
    this.#channel = channel;
  }

  /**
   * Sends an append built for its counter (`build` returns what sends it, and may be called again);
   * resolves once the broker took it.
   */
  add(build: (counter: number) => () => Promise<unknown>): Promise<boolean> {
    const counter = ++this.#counter;
    return new Promise((done, fail) => {
      const pending: Pending = {
        build,
        send: build(counter),
        done,
        fail,
        inFlight: false,
        attempts: 0,
        inDoubt: false,
      };
      this.#unanswered.set(counter, pending);
      if (this.#channel.ready() && !this.#held) this.#send(counter, pending);
    });
  }

  /** The connection is ready (again): sends the first append waiting, once none is in flight. */
  resume(): void {
    if (!this.#channel.ready()) return;
    for (const pending of this.#unanswered.values()) if (pending.inFlight) return;
    const first = this.#unanswered.entries().next().value;
    // The first goes alone; the others follow once it went through (or failed for good).
    this.#held = first !== undefined;
    if (first !== undefined) this.#send(...first);
  }

  /** Fails every append waiting (the app closes, or the connection is replaced for not answering). */
  fail(error: Error): void {
    for (const [counter, pending] of this.#unanswered) {
      if (pending.inFlight) continue;
      this.#unanswered.delete(counter);
      pending.fail(error);
    }
  }

  #send(counter: number, pending: Pending): void {
    pending.inFlight = true;
    pending.attempts++;
    pending.send().then(
      () => {
        this.#unanswered.delete(counter);
        pending.done(true);
        if (!this.#held) return;
        // It went through: the others follow, in order.
        this.#held = false;
        for (const [next, waiting] of this.#unanswered) if (!waiting.inFlight) this.#send(next, waiting);
      },
      (error: unknown) => {
        pending.inFlight = false;
        if (this.#channel.final(error) || pending.attempts >= MAX_ATTEMPTS) {
          this.#unanswered.delete(counter);
          pending.fail(error);
          if (this.#held) this.resume();
          return;
        }
        if (!this.#channel.refused?.(error)) pending.inDoubt = true;
        else if (!pending.inDoubt) this.#renumber(counter);
        this.#held = true;
        // Refused by a broker that is coming back: sent again after a while; the connection's "ready"
        // resumes otherwise.
        if (this.#channel.ready()) {
          const wait = Math.min(RETRY_MS * 2 ** (pending.attempts - 1), 2000);
          (setTimeout(() => this.resume(), wait) as { unref?: () => void }).unref?.();
        }
      },
    );
  }

  // The refused append and the ones waiting after it take new counters, in their order. None of them is
  // in doubt: those are the first sent, and after a failure the first waiting goes alone.
  #renumber(from: number): void {
    const entries = [...this.#unanswered].sort(([a], [b]) => a - b);
    for (const entry of entries) {
      const [counter, pending] = entry;
      if (counter < from || pending.inFlight || pending.inDoubt) continue;
      entry[0] = ++this.#counter;
      pending.send = pending.build(entry[0]);
    }
    entries.sort(([a], [b]) => a - b);
    this.#unanswered.clear();
    for (const [counter, pending] of entries) this.#unanswered.set(counter, pending);
  }
}
