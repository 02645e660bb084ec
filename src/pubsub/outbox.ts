// Publishes handed to the backplane and not yet answered: how many (bounded), and for how long.
//
// A broker that keeps its TCP connection up but stops answering (paused, overloaded, a half-open link)
// would otherwise hold every publish in memory for ever. The outbox refuses more than `maxQueued` at a
// time, and calls `onStall` when the oldest has waited `publishTimeout` ms.
//
// That wait is counted on the event loop's awake time, not the wall clock: after a handler blocks the
// loop for 6 s, the broker's answers are sitting unread in the socket, and a plain timer would fire
// before they are read (node-redis's 5 s command timeout did, and dropped whole bursts with the broker
// healthy). A watchdog ticks every `tick` ms and counts at most two ticks per tick, so time the loop
// spent blocked is not charged to the broker.

/** The bounds of a backplane's outbox. */
export interface OutboxLimits {
  /** Most publishes waiting for the broker's answer; more are dropped (counted and reported). */
  readonly maxQueued: number;
  /** How long the oldest may wait, in ms of the event loop's awake time, before the broker is stalled. */
  readonly publishTimeout: number;
}

/** The publishes in flight to a broker. */
export class Outbox {
  readonly #limits: OutboxLimits;
  readonly #onStall: () => void;
  // Each publish in flight, by id, with the awake time it was handed over at (oldest first).
  readonly #waiting = new Map<number, number>();
  readonly #tick: number;
  #next = 0;
  #awake = 0;
  #last = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #drained: (() => void)[] = [];

  constructor(limits: OutboxLimits, onStall: () => void) {
    this.#limits = limits;
    this.#onStall = onStall;
    this.#tick = Math.min(1000, Math.max(10, Math.floor(limits.publishTimeout / 8)));
  }

  /** How many publishes wait for an answer. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Whether the bound is reached (the next publish must be dropped). */
  get full(): boolean {
    return this.#waiting.size >= this.#limits.maxQueued;
  }

  /** Records a publish handed over; returns its id for `settle`. */
  add(): number {
    if (this.#timer === undefined) {
      this.#last = performance.now();
      this.#timer = setInterval(() => this.#check(), this.#tick);
    }
    const id = this.#next++;
    this.#waiting.set(id, this.#awake);
    return id;
  }

  /** The broker answered publish `id` (or it failed). */
  settle(id: number): void {
    this.#waiting.delete(id);
    if (this.#waiting.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    for (const resolve of this.#drained.splice(0)) resolve();
  }

  /** Resolves once nothing is in flight. */
  drained(): Promise<void> {
    if (this.#waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  #check(): void {
    const now = performance.now();
    this.#awake += Math.min(now - this.#last, 2 * this.#tick);
    this.#last = now;
    const oldest = this.#waiting.values().next();
    if (oldest.done || this.#awake - oldest.value < this.#limits.publishTimeout) return;
    // The next stall needs another full timeout: the driver is reconnecting meanwhile.
    for (const id of this.#waiting.keys()) this.#waiting.set(id, this.#awake);
    this.#onStall();
  }
}
