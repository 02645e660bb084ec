// Where an app meets the runtime it runs on: the core takes a `Runtime` (src/runtime/runtime.ts) and
// imports no adapter; this root module gives it the one this process runs on.
import { fetchRuntime } from "./adapters/fetch-runtimes.ts";
import type { AppOptions } from "./app/app-options.ts";
import { App } from "./app/create-app.ts";
import type { RegisteredEnv } from "./context/context.ts";

/**
 * Creates an app, for the runtime it runs on: `export default app` on Bun and Workers,
 * `Deno.serve(app.fetch)` on Deno, or `serve(app)` from `portico/node`.
 *
 * @example
 * const app = createApp();
 * app.get("/", (ctx) => { ctx.response.write("Hello"); });
 * export default app;
 */
export function createApp<TEnv = RegisteredEnv>(options: AppOptions = {}): App<TEnv> {
  return new App<TEnv>(options.runtime === undefined ? { ...options, runtime: fetchRuntime } : options);
}
