/** One step of a request's work: runs with some state, and may return a promise. */
export type Step<TState> = (state: TState) => unknown;

/**
 * Runs `steps` in order on `state`, from `start`: synchronously as long as they are synchronous, and
 * on from the first one that returns a promise once it settles. Returns that promise (rejected with
 * the first error), or nothing when every step was synchronous; a synchronous error is thrown.
 * Endpoints (params, before, call, after), params (one step per source) and channels use it, so that
 * a request without asynchronous work completes without a promise or a microtask.
 *
 * @example
 * const pending = runSteps([parse, authorise, call], ep);
 * if (pending) await pending;
 */
export function runSteps<TState>(
  steps: readonly Step<TState>[],
  state: TState,
  start = 0,
): void | Promise<void> {
  for (let i = start; i < steps.length; i++) {
    const result = steps[i]!(state);
    if (result instanceof Promise) return result.then(() => runSteps(steps, state, i + 1));
  }
}
