// What server adapters reach of a Portico app beyond its public API, through its state: its `fetch`
// for their own runtime, its start, and the first step of its close.
import type { ExecutionContext } from "../context/context.ts";
import type { Runtime, RuntimeFetch } from "../runtime/runtime.ts";
import type { AppState } from "./app-state.ts";
import { dispatch } from "./dispatch.ts";
import { closeSockets, startApp } from "./lifecycle.ts";

// Each app's state.
const states = new WeakMap<object, AppState>();

/** Records an app's state (its constructor does). */
export function registerState(app: object, state: AppState): void {
  states.set(app, state);
}

/**
 * A Portico app's `fetch` for requests a given runtime serves (a server adapter calls it once, with
 * its own runtime), or `undefined` for any other object.
 */
export function fetchOn(app: object, runtime: Runtime): RuntimeFetch | undefined {
  const state = states.get(app);
  if (state === undefined) return undefined;
  return (request, env, executionContext) =>
    dispatch(state, request, env, executionContext as ExecutionContext | undefined, runtime);
}

/** Runs a Portico app's `onStart()` hooks (once); resolves at once for any other object. */
export function startOf(app: object): Promise<void> {
  const state = states.get(app);
  return state === undefined ? Promise.resolve() : startApp(state);
}

/** Closes a Portico app's websockets with 1001 (the first step of a server's shutdown). */
export function closeSocketsOf(app: object): Promise<void> {
  const state = states.get(app);
  return state === undefined ? Promise.resolve() : closeSockets(state);
}
