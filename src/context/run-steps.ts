import { isPending, type Later, later } from "./later.ts";

/** One step of a request's work: runs with some state, and may return a promise. */
export type Step<TState> = (state: TState) => unknown;

/**
 * Runs `steps` in order on `state`, from `start`: synchronously as long as they are synchronous, and
 * on from the first one that does not finish at once (a promise, or a `Later`) once it settles.
 * Returns the rest of the work as a `Later` (failing with the first error), or nothing when every step
 * was synchronous; a synchronous error is thrown. Endpoints (params, before, call, after), params (one
 * step per source) and channels use it, so that a request without asynchronous work completes without
 * a promise or a microtask, and one with some continues in the reaction of what it waited for.
 *
 * @example
 * const pending = runSteps([parse, authorise, call], ep);
 * if (pending) await pending.promise;
 */
export function runSteps<TState>(
  steps: readonly Step<TState>[],
  state: TState,
  start = 0,
): void | Later<void> {
  for (let i = start; i < steps.length; i++) {
    const result = steps[i]!(state);
    if (isPending(result)) return later(result, () => runSteps(steps, state, i + 1));
  }
}
