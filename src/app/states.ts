// What server adapters reach of a Portico app beyond its public API, through its state: its `fetch`
// for their own runtime (or its answers as parts, for a server that writes them), its start, and the
// first step of its close.
import type { ExecutionContext } from "../context/context.ts";
import type { Pending } from "../context/later.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import type { Runtime, RuntimeFetch } from "../runtime/runtime.ts";
import type { AppState } from "./app-state.ts";
import { dispatch, dispatchFetch } from "./dispatch.ts";
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
    dispatchFetch(state, request, env, executionContext as ExecutionContext | undefined, runtime);
}

/** Answers a request as parts (`http/response-parts.ts`), for a server that writes them itself. */
export type PartsFetch = (request: Request) => ResponseParts | Pending<ResponseParts>;

/**
 * A Portico app's answer as parts for requests a given runtime serves (the Node adapter writes them
 * without a `Response`), or `undefined` for any other object.
 */
export function partsOn(app: object, runtime: Runtime): PartsFetch | undefined {
  const state = states.get(app);
  if (state === undefined) return undefined;
  return (request) => dispatch(state, request, undefined, undefined, runtime);
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
