/**
 * The rest of a request's work once what it waits for (its body, an async `call`) settles. Each layer
 * of the request path (params, the endpoint's steps, the middleware chain, the response, the adapter's
 * write) adds its continuation with `next`, and they all run one after another in the one reaction of
 * that promise: a JSON body's parse, validation, `call`, render and write cost one promise hop after
 * the body arrives, where a `then` per layer cost ten (issue 41 §2.2).
 *
 * A `Later` is used linearly: `next` continues *it* (it returns the same object), so each value is
 * continued once, by the layer it was handed to; two readers of one result need `promise`. It is not a
 * thenable, so that nothing adopts it by mistake: what leaves the core for user code or a runtime
 * (`app.fetch`, `next()` in middleware, `Endpoint.call`) is its `promise`. For the same reason a
 * promise's `then` callback must never return one: continue a promise with `later()` instead.
 */
export class Later<T = unknown> {
  // Continuations in pairs: what runs on a value, what runs on an error (either may be absent).
  readonly #steps: (((value: unknown) => unknown) | undefined)[] = [];
  #promise: Promise<unknown>;
  #done = false;

  constructor(source: PromiseLike<unknown>) {
    this.#promise = Promise.resolve(source).then(
      (value) => this.#run(value, false, 0),
      (error: unknown) => this.#run(error, true, 0),
    );
  }

  /** Continues with `onValue` (or `onError`, which may recover): what it returns is the next value. */
  next<U>(onValue: (value: T) => U | Pending<U>, onError?: (error: unknown) => U | Pending<U>): Later<U> {
    if (this.#done) {
      // Once run, a continuation is its promise's; one that returns a `Later` gives its promise.
      this.#promise = this.#promise.then(
        (value) => settled(onValue(value as T)),
        onError === undefined ? undefined : (error: unknown) => settled(onError(error)),
      );
    } else this.#steps.push(onValue as (value: unknown) => unknown, onError);
    return this as unknown as Later<U>;
  }

  /** The end of the work, as a promise: for what leaves the core. */
  get promise(): Promise<T> {
    return this.#promise as Promise<T>;
  }

  #run(value: unknown, failed: boolean, from: number): unknown {
    const steps = this.#steps;
    for (let i = from; i < steps.length; i += 2) {
      const step = failed ? steps[i + 1] : steps[i];
      if (step === undefined) continue;
      try {
        value = step(value);
        failed = false;
      } catch (error) {
        value = error;
        failed = true;
        continue;
      }
      // A continuation that waits itself (an async `call`): the rest runs once that settles.
      if (value === this) {
        value = new TypeError("A Later cannot wait for itself");
        failed = true;
        continue;
      }
      if (value instanceof Later) {
        return value.next(
          (settled) => this.#run(settled, false, i + 2),
          (error) => this.#run(error, true, i + 2),
        ).promise;
      }
      if (value instanceof Promise) {
        return value.then(
          (settled) => this.#run(settled, false, i + 2),
          (error: unknown) => this.#run(error, true, i + 2),
        );
      }
    }
    this.#done = true;
    if (failed) throw value;
    return value;
  }
}

/** A value that is not there yet: a promise, or the rest of a request's work. */
export type Pending<T> = Promise<T> | Later<T>;

/** Whether `value` is not there yet. */
export function isPending(value: unknown): value is Pending<unknown> {
  return value instanceof Later || value instanceof Promise;
}

/**
 * `value` continued with `onValue` (and `onError`): on the `Later` it already is, or on one made from a
 * promise. Synchronous values are the caller's to handle, as they may not need a continuation at all.
 */
export function later<T, U>(
  value: Pending<T>,
  onValue: (value: T) => U | Pending<U>,
  onError?: (error: unknown) => U | Pending<U>,
): Later<U> {
  return (value instanceof Later ? value : new Later<T>(value)).next(onValue, onError);
}

/** What leaves the core: a `Later` as its promise, anything else as it is. */
export function settled<T>(value: Pending<T>): Promise<T>;
export function settled<T>(value: T | Pending<T>): T | Promise<T>;
export function settled<T>(value: T | Pending<T>): T | Promise<T> {
  return value instanceof Later ? value.promise : (value as T | Promise<T>);
}
