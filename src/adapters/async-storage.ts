// `Runtime.asyncStorage`: Node's `AsyncLocalStorage`, which Node, Bun and Deno have, and Workers with the
// `nodejs_compat` flag; reached through `process.getBuiltinModule`, so that no bundle imports it and a
// runtime without it answers `undefined` (then `createApp({ asyncContext: true })` says what is missing).
import type { AsyncStorage } from "../runtime/runtime.ts";

type Builtins = { getBuiltinModule?: (name: string) => unknown } | undefined;

/** A new `AsyncLocalStorage`, or `undefined` where the runtime has none. */
export function builtinAsyncStorage(): AsyncStorage | undefined {
  const get = (globalThis as { process?: Builtins }).process?.getBuiltinModule;
  if (get === undefined) return undefined;
  let hooks: { AsyncLocalStorage?: new () => AsyncStorage } | undefined;
  try {
    hooks = get("node:async_hooks") as typeof hooks;
  } catch {
    return undefined;
  }
  return hooks?.AsyncLocalStorage === undefined ? undefined : new hooks.AsyncLocalStorage();
}
