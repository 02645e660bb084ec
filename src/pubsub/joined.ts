// Each subscriber's topics, so that leaving costs its own topics only (`hub.ts`).
//
// One topic is kept as itself, a few in an array, many in a set: most sockets are in one or two topics,
// and a `Set` each cost ~200 B of memory per idle socket.

/** The topics each subscriber is in. */
export class Joined<Subscriber extends object> {
  readonly #joined = new WeakMap<Subscriber, string | string[] | Set<string>>();

  /** Records that `subscriber` is in `topic`. */
  add(subscriber: Subscriber, topic: string): void {
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

  /** Records that `subscriber` left `topic`. */
  remove(subscriber: Subscriber, topic: string): void {
    const joined = this.#joined.get(subscriber);
    if (joined === topic) this.#joined.delete(subscriber);
    else if (Array.isArray(joined)) {
      const at = joined.indexOf(topic);
      if (at >= 0) joined.splice(at, 1);
    } else if (joined instanceof Set) joined.delete(topic);
  }

  /** Forgets a subscriber. */
  drop(subscriber: Subscriber): void {
    this.#joined.delete(subscriber);
  }

  /** The topics a subscriber is in. */
  of(subscriber: Subscriber): string[] {
    const joined = this.#joined.get(subscriber);
    return joined === undefined ? [] : typeof joined === "string" ? [joined] : [...joined];
  }
}
