// `currentContext()`: the context of the request being handled, reached from code that was not given it
// (a repository function that wants the request id or the current span), through the runtime's
// `AsyncLocalStorage`. Opt-in (`createApp({ asyncContext: true })`): it costs every request of the app.
import type { AsyncStorage, Runtime } from "../runtime/runtime.ts";
import type { Context, RegisteredEnv } from "./context.ts";

// One store for the process, made by the first app that asks: a context is an app's own object, so
// apps sharing it never see each other's.
let storage: AsyncStorage | undefined;

/** The store an app with `asyncContext` runs its requests in; a runtime without one is an error. */
export function contextStorage(runtime: Runtime): AsyncStorage {
  const made = storage ?? runtime.asyncStorage?.();
  if (made === undefined || runtime.asyncStorage === undefined) {
    throw new TypeError(
      `createApp({ asyncContext: true }) needs AsyncLocalStorage, which ${runtime.name === "none" ? "this runtime" : runtime.name} does not give here` +
        (runtime.name === "Workers" ? " (enable the nodejs_compat compatibility flag)" : ""),
    );
  }
  storage = made;
  return made;
}

/**
 * The context of the request whose handling this code runs in (its middleware, handler, endpoint,
 * and everything they await or start), or `undefined` outside any request. Needs an app made with
 * `createApp({ asyncContext: true })`; without one it throws, rather than answer `undefined` everywhere.
 *
 * @example
 * export async function findUser(id: number) {
 *   const ctx = currentContext();
 *   log.info({ requestId: ctx?.request.id }, "loading user");
 *   return db.users.find(id);
 * }
 */
export function currentContext<TEnv = RegisteredEnv>(): Context<TEnv> | undefined {
  if (storage === undefined) {
    throw new Error("currentContext() needs an app made with createApp({ asyncContext: true })");
  }
  return storage.getStore() as Context<TEnv> | undefined;
}
