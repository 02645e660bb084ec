// Appends to a broker-kept history (Redis, NATS JetStream), sent in order and applied once.
//
// An append whose connection drops before the answer may or may not have been applied. It is sent
// again when the connection is back, with every append after it, in order, once none is in flight;
// the broker recognises one it already applied (by the publisher's id and counter) and skips it. So a
// broker restart loses and repeats nothing. Written once for every driver that keeps a history.

// How often an append is sent before it fails, and the first wait before an append a ready connection
// refused is sent again (doubled each time, up to 2 s): about 10 s in all.
const MAX_ATTEMPTS = 8;
const RETRY_MS = 100;

interface Pending {
  readonly send: () => Promise<unknown>;
  readonly done: (ok: boolean) => void;
  readonly fail: (error: unknown) => void;
  inFlight: boolean;
  attempts: number;
}

/** What an {@link OrderedAppends} needs from its driver. */
export interface AppendChannel {
  /** Whether the connection can take a command now. */
  ready(): boolean;
  /** Whether a failure is the broker's answer (final), not the connection's (sent again). */
  final(error: unknown): boolean;
}

/** The appends of one publisher, in the order they were made, until each is answered. */
export class OrderedAppends {
  // Each publisher has an id; each of its appends a counter, from 1, in order.
  readonly publisher: string = crypto.randomUUID();
  readonly #channel: AppendChannel;
  readonly #unanswered = new Map<number, Pending>();
  // An append failed: the ones after it wait until it is sent again.
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
    const send = build(counter);
    return new Promise((done, fail) => {
      const pending: Pending = { send, done, fail, inFlight: false, attempts: 0 };
      this.#unanswered.set(counter, pending);
      if (this.#channel.ready() && !this.#held) this.#send(counter, pending);
    });
  }

  /** The connection is ready (again): sends what waits, in order, once none is in flight. */
  resume(): void {
    if (!this.#channel.ready()) return;
    for (const pending of this.#unanswered.values()) if (pending.inFlight) return;
    this.#held = false;
    for (const [counter, pending] of this.#unanswered) this.#send(counter, pending);
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
      },
      (error: unknown) => {
        pending.inFlight = false;
        if (this.#channel.final(error) || pending.attempts >= MAX_ATTEMPTS) {
          this.#unanswered.delete(counter);
          pending.fail(error);
          return;
        }
        this.#held = true;
        // Refused by a broker that is coming back (loading its data): sent again after a while; the
        // connection's "ready" resumes the others.
        if (this.#channel.ready())
          setTimeout(() => this.resume(), Math.min(RETRY_MS * 2 ** (pending.attempts - 1), 2000));
      },
    );
  }
}
