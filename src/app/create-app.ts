import type { Context, ExecutionContext, RegisteredEnv } from "../context/context.ts";
import { contextStorage } from "../context/current.ts";
import { resolveLimits } from "../context/limits.ts";
import type { Recovery, Topic } from "../context/socket.ts";
import type { ErrorRendering } from "../errors/render-error.ts";
import { errorRenderingOf } from "../errors/rendering.ts";
import type { ControlTarget } from "../pubsub/control.ts";
import type { PubSubStats, TopicHealth } from "../pubsub/hub.ts";
import type { PresenceEvent, PresenceState } from "../pubsub/presence.ts";
import { compilePattern } from "../router/compile-pattern.ts";
import { Router } from "../router/create-router.ts";
import { RouteTable, WS_METHOD } from "../router/route-table.ts";
import { NOT_FOUND_METHOD, newScope } from "../router/scope.ts";
import { NO_RUNTIME, type TopicMessage } from "../runtime/runtime.ts";
import { type BunWebSocketHandlers, bunWebSocketHandlers } from "../ws/bun-handlers.ts";
import { checkCloseCode } from "../ws/socket-controller.ts";
import { type AppOptions, addressLookup, topicHub } from "./app-options.ts";
import { type AppRoute, type AppState, consoleLogger, type Logger } from "./app-state.ts";
import { dispatchFetch } from "./dispatch.ts";
import { inProcessRequest } from "./in-process.ts";
import { closeApp } from "./lifecycle.ts";
import { type RouteInfo, routeInfo } from "./route-info.ts";
import { routeStep } from "./route-step.ts";
import { registerState } from "./states.ts";
import { asterisk, unmatched } from "./unmatched.ts";

/** A Portico application: a router plus the request cycle, runnable on any Fetch-API runtime. */
export class App<TEnv = RegisteredEnv> extends Router<TEnv> {
  readonly #state: AppState;
  readonly #listed: readonly RouteInfo[];
  #closing: Promise<void> | undefined;

  /**
   * Handles a request: `export default app` on Workers and Bun, `Deno.serve(app.fetch)` on Deno.
   * Bound, so it can be passed around on its own. Like Hono's, it answers synchronous handlers with a
   * `Response` and others with a promise (which never rejects): `await` it, or use `app.request()`.
   */
  readonly fetch: (
    request: Request,
    env?: TEnv,
    executionContext?: ExecutionContext,
  ) => Response | Promise<Response>;

  /** Bun's websocket handlers (`Bun.serve(app)` and `export default app` pick them up). */
  readonly websocket: BunWebSocketHandlers;

  /** The header that carries the request id (lower case), for adapters that answer on their own. */
  readonly requestIdHeader: string;

  /** How the app renders its errors (`createApp({ errors })`), as `openapi()` documents them. */
  readonly errorRendering: ErrorRendering;

  /** Where the app reports failures; adapters report theirs there too. */
  readonly logger: Logger;

  /**
   * Makes an app for `options.runtime` (none by default: use `createApp(options)`, which finds the
   * runtime it runs on).
   */
  constructor(options: AppOptions = {}) {
    const limits = resolveLimits(options.limits);
    const table = new RouteTable<AppRoute>(limits.pathParamLength);
    const root = newScope();
    const state: AppState = {
      table,
      root,
      unmatched: { scopes: [root], run: (ctx) => unmatched(state, ctx) },
      asterisk: { scopes: [root], run: (ctx) => asterisk(state, ctx) },
      verbose: options.verbose === true,
      errorRendering: errorRenderingOf(options.errors),
      trustIncomingId: options.requestId?.trustIncoming === true,
      idHeader: (options.requestId?.header ?? "X-Request-Id").toLowerCase(),
      limits,
      logger: options.logger ?? consoleLogger,
      clientAddress: addressLookup(options.trustProxy),
      notFounds: [],
      hub: topicHub(options),
      sockets: new Set(),
      starters: [],
      starting: undefined,
      started: true,
      closers: [],
      hasWebSockets: false,
      contexts: options.asyncContext === true ? contextStorage(options.runtime ?? NO_RUNTIME) : undefined,
    };
    const listed: RouteInfo[] = [];
    const names = new Set<string>();
    super("", [root], root, (record) => {
      if (record.method === NOT_FOUND_METHOD) {
        const handler = record.handler as (ctx: Context) => unknown;
        const run = (ctx: Context): unknown => {
          ctx.response.status = 404;
          return handler(ctx);
        };
        state.notFounds.push({ prefix: record.path, route: { scopes: record.scopes, run } });
        return;
      }
      if (record.name !== undefined) {
        if (names.has(record.name)) throw new TypeError(`Two routes are named "${record.name}"`);
        names.add(record.name);
      }
      const compiled = compilePattern(record.path);
      const run = routeStep(state, record.method, record.path, compiled.names, record.handler, record.scopes);
      const info = routeInfo(record);
      table.add(record.method, compiled, { scopes: record.scopes, run, matched: info });
      if (record.method === WS_METHOD) state.hasWebSockets = true;
      listed.push(info);
    });
    this.#listed = listed;
    this.#state = state;
    this.websocket = bunWebSocketHandlers(limits.wsMessageSize, limits.wsBufferedAmount);
    this.requestIdHeader = state.idHeader;
    this.errorRendering = state.errorRendering;
    this.logger = state.logger;
    const runtime = options.runtime ?? NO_RUNTIME;
    registerState(this, state);
    this.fetch = (request, env, executionContext) =>
      dispatchFetch(state, request, env, executionContext, runtime);
  }

  /**
   * Every route registered so far, in registration order: method, full path, handler, name and the
   * middleware around it. What `openapi()` documents.
   *
   * @example
   * for (const route of app.routes()) console.log(route.method, route.path, route.name ?? "");
   */
  routes(): readonly RouteInfo[] {
    return this.#listed;
  }

  /**
   * Publishes a message to a topic's subscribers, from anywhere (a handler, a job): every socket of
   * this instance subscribed to it, and, with a backplane, those of every other instance.
   *
   * A typed topic (`Chat.topic(name)` of a channel) takes that channel's `out` messages, written as the
   * channel writes them (JSON).
   *
   * @example
   * app.post("/rooms/:room/announce", async (ctx) => { app.publish(`room:${ctx.request.pathParams.room}`, await ctx.request.raw.text()); });
   * app.publish(Chat.topic("room:lobby"), { kind: "notice", text: "Maintenance at noon" });
   */
  publish<TMessage>(topic: Topic<TMessage>, message: TMessage): void;
  /** Publishes text or bytes to a topic named by a string (see the typed form above). */
  publish(topic: string, message: string | Uint8Array): void;
  publish(topic: string | Topic<unknown>, message: unknown): void {
    if (typeof topic === "string") this.#state.hub.publish(topic, message as string | Uint8Array);
    else this.#state.hub.publish(topic.name, topic.encode(message));
  }

  /**
   * Follows a topic from anywhere but a websocket (an event stream, a job): `listener` gets each message
   * published to it on this instance and, with a backplane, on every other. Returns the unsubscribe.
   * A listener that throws is logged; the others still get the message. For a topic with a history
   * (`createApp({ history })`), the listener gets each message's position too, and `options.since`
   * replays what came after a position first (`options.onRecovery` says whether all of it could be).
   *
   * @example
   * app.get("/rooms/:room/events", (ctx) =>
   *   sse(ctx, async (stream) => {
   *     const stop = app.subscribe(`room:${ctx.request.pathParams.room}`, (message) => void stream.send({ data: message }));
   *     stream.signal.addEventListener("abort", stop);
   *     await new Promise((resolve) => stream.signal.addEventListener("abort", resolve));
   *   }),
   * );
   */
  subscribe(
    topic: string,
    listener: (message: TopicMessage, position?: string) => void,
    options: { readonly since?: string | undefined; readonly onRecovery?: (recovery: Recovery) => void } = {},
  ): () => void {
    const hub = this.#state.hub;
    const subscriber = { send: (message: TopicMessage) => listener(message) };
    const recovery = hub.subscribe(subscriber, topic, { since: options.since, send: listener });
    recovery?.then(options.onRecovery, (error: unknown) =>
      this.#state.logger.error("[portico] recovery failed", error),
    );
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      hub.unsubscribe(subscriber, topic);
    };
  }

  /**
   * Closes every socket with the tag (`socket.tag(name)`), on this instance and, with a backplane, on
   * every other: a user signed out everywhere, a banned device. `code` 1000 (default), 1001, 1008,
   * 1011 or 3000–4999.
   *
   * @example
   * app.post("/users/:id/sign-out-everywhere", (ctx) => { app.disconnect({ tag: `user:${ctx.request.pathParams.id}` }, 4001, "Signed out"); });
   */
  disconnect(target: ControlTarget, code = 1000, reason = ""): void {
    checkCloseCode(code);
    this.#state.hub.control({ op: "disconnect", tag: target.tag, code, reason });
  }

  /**
   * Subscribes every socket with the tag to a topic, on every instance (a user added to a room joins it
   * on all their devices).
   *
   * @example
   * app.join({ tag: "user:42" }, "room:ops");
   */
  join(target: ControlTarget, topic: string): void {
    this.#state.hub.control({ op: "join", tag: target.tag, topic });
  }

  /** Unsubscribes every socket with the tag from a topic, on every instance. */
  leave(target: ControlTarget, topic: string): void {
    this.#state.hub.control({ op: "leave", tag: target.tag, topic });
  }

  /**
   * Who is in a topic, on every instance: the members that joined it with `socket.subscribe(topic,
   * { presence: data })`. An instance that just began following the topic asks the others first
   * (they have a quarter of a second to answer).
   *
   * @example
   * app.get("/rooms/:room/members", async (ctx) => (await app.presence(`room:${ctx.request.pathParams.room}`)).count);
   */
  presence(topic: string): Promise<PresenceState> {
    return this.#state.hub.presence.ask(topic);
  }

  /**
   * Hears each member join and leave a topic's presence, on any instance (an instance that died: its
   * members leave after three heartbeats). Returns the unsubscribe.
   */
  onPresence(topic: string, listener: (event: PresenceEvent) => void): () => void {
    return this.#state.hub.presence.listen(topic, listener);
  }

  /** What the topics counted: messages published, delivered locally, dropped by the backplane, received. */
  get topicStats(): Readonly<PubSubStats> {
    return this.#state.hub.stats;
  }

  /**
   * The backplane's state: connected or not and since when, the last failure, and how many publishes
   * wait for the broker. A readiness check can answer from it.
   *
   * @example
   * app.get("/ready", (ctx) => {
   *   const health = app.topicHealth();
   *   ctx.response.status = health.connected ? 200 : 503;
   *   return health;
   * });
   */
  topicHealth(): TopicHealth {
    return this.#state.hub.health;
  }

  /**
   * Registers what to prepare before the app answers (`app.onStart(() => pool.connect())`): run once,
   * in order, by every adapter's `serve()` before it listens (a failure rejects it), else before the
   * first request is answered (`export default app`), which waits; a failure is logged and answered 503.
   */
  onStart(start: () => unknown): this {
    if (typeof start !== "function") throw new TypeError("onStart() takes a function");
    if (this.#state.starting !== undefined) throw new TypeError("onStart() after the app has started");
    this.#state.starters.push(start);
    this.#state.started = false;
    return this;
  }

  /**
   * Registers what to release when the app closes (`app.onClose(() => pool.end())`): run by `close()`
   * after the websockets and the backplane, the last registered first; a failure is logged, the rest run.
   */
  onClose(release: () => unknown): this {
    if (typeof release !== "function") throw new TypeError("onClose() takes a function");
    this.#state.closers.push(release);
    return this;
  }

  /**
   * Releases what the app holds beyond its requests: closes its websockets with 1001 ("going away":
   * clients reconnect elsewhere) and waits up to 5 s for them to close, then waits for the publishes
   * in flight to the backplane (up to its publish timeout) and disconnects it, so the process can exit.
   * Every adapter's server handle calls it from its own `close()`; call it yourself where you serve
   * the app another way; then runs what `onClose()` registered. Idempotent; topics published after it
   * are dropped (and counted).
   *
   * @example
   * process.once("SIGTERM", () => void server.close());
   */
  close(): Promise<void> {
    this.#closing ??= closeApp(this.#state);
    return this.#closing;
  }

  /**
   * Dispatches a request in-process, without a server (for tests).
   *
   * @example
   * const res = await app.request("/users/42", { headers: { accept: "application/json" } });
   */
  request(input: string | Request, init?: RequestInit, env?: TEnv): Promise<Response> {
    return Promise.resolve(this.fetch(inProcessRequest(input, init), env));
  }
}
