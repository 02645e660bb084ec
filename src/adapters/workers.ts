/**
 * Cloudflare Workers need nothing more than the app: `export default app`. Websockets go through
 * `WebSocketPair` automatically. This module adds the types a Worker touches, and `toWorker` for a
 * Worker that also has other handlers (`scheduled`, `queue`…).
 *
 * @example
 * import { toWorker } from "portico/workers";
 * export default toWorker(app, { scheduled: async (event, env, ctx) => { … } });
 *
 * @module portico/workers
 */
import type { ExecutionContext } from "../context/context.ts";

export type { ExecutionContext };

/** A module Worker's `fetch` handler. */
export interface WorkerFetch<TEnv> {
  /** Answers a request with the Worker's bindings and execution context. */
  fetch(request: Request, env: TEnv, ctx: ExecutionContext): Response | Promise<Response>;
}

/** What Workers take from a Portico app. */
export interface WorkersApp<TEnv> {
  /** Answers a request. */
  fetch(request: Request, env?: TEnv, ctx?: ExecutionContext): Response | Promise<Response>;
}

/**
 * The module Worker for an app, with any other handlers beside `fetch`.
 *
 * @example
 * const app = createApp<{ DB: D1Database }>();
 * export default toWorker(app, { scheduled: (event, env) => cleanUp(env.DB) });
 */
export function toWorker<TEnv, THandlers extends object = Record<never, never>>(
  app: WorkersApp<TEnv>,
  handlers?: THandlers,
): WorkerFetch<TEnv> & THandlers {
  return { ...(handlers as THandlers), fetch: (request, env, ctx) => app.fetch(request, env, ctx) };
}

export {
  type ChannelHostClass,
  channelHost,
  type DurableObjectNamespace,
  type DurableObjectState,
  forwardTo,
  type HibernatableWebSocket,
  type HostedApp,
} from "./workers-durable.ts";
