// Channels hosted by a Durable Object, with the hibernation API: the sockets of one room live in one
// object (which may write to all of them, where a Worker may write only to its own request's), and an
// idle room is evicted from memory while its sockets stay connected.

import { fetchOn } from "../app/states.ts";
import type { Context } from "../context/context.ts";
import type { BlockHandler } from "../context/handler.ts";
import type { RuntimeFetch, SocketSink, SocketTransport, UpgradeShim } from "../runtime/runtime.ts";
import { standardTransport } from "../ws/whatwg-transport.ts";
import { workersRuntime } from "./workers-runtime.ts";

/** A hibernatable websocket, as a Durable Object sees it. */
export interface HibernatableWebSocket {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** Sends text or bytes. */
  send(data: string | Uint8Array): void;
  /** Closes the connection. */
  close(code?: number, reason?: string): void;
  /** Keeps a small value with the socket through hibernation. */
  serializeAttachment(value: unknown): void;
  /** The value kept with the socket. */
  deserializeAttachment(): unknown;
}

/** The part of a Durable Object's state the host uses (the hibernation API). */
export interface DurableObjectState {
  /** Accepts a socket that survives the object's eviction. */
  acceptWebSocket(socket: HibernatableWebSocket, tags?: string[]): void;
  /** The sockets accepted so far (after a wake-up too). */
  getWebSockets(tag?: string): HibernatableWebSocket[];
}

/** A Durable Object namespace binding, as the Worker that forwards to it sees it. */
export interface DurableObjectNamespace {
  /** The id of the object with this name. */
  idFromName(name: string): unknown;
  /** The object's stub. */
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

/** What a channel host needs of the app it runs (a Portico app, `createApp()`). */
export interface HostedApp<TEnv> {
  /** Answers a request with the object's bindings. */
  fetch(request: Request, env?: TEnv): Response | Promise<Response>;
}

// The object's requests are served by workerd, with the object's own way to accept their sockets
// (hibernatable) and, for the replay of a woken socket, `resumed`.
function hostedFetch<TEnv>(app: HostedApp<TEnv>, shim: UpgradeShim, resumed: boolean): RuntimeFetch {
  const fetch = fetchOn(app, { ...workersRuntime, upgrade: () => shim, resumed: () => resumed });
  if (fetch === undefined) throw new TypeError("channelHost() hosts a Portico app (createApp())");
  return fetch;
}

/** A Durable Object class hosting an app's websocket routes. */
export interface ChannelHostClass<TEnv> {
  /** Made by the runtime, with the object's state and bindings. */
  new (
    state: DurableObjectState,
    env: TEnv,
  ): {
    /** The upgrade requests forwarded by the Worker. */
    fetch(request: Request): Promise<Response>;
    /** Hibernation API: a message. */
    webSocketMessage(socket: HibernatableWebSocket, message: string | ArrayBuffer): Promise<void>;
    /** Hibernation API: a close. */
    webSocketClose(socket: HibernatableWebSocket, code: number, reason: string): Promise<void>;
    /** Hibernation API: an error. */
    webSocketError(socket: HibernatableWebSocket, error: unknown): Promise<void>;
  };
}

interface Attachment {
  readonly url: string;
  readonly headers: [string, string][];
  readonly topics: readonly string[];
  readonly tags?: readonly string[];
  readonly presence?: Readonly<Record<string, unknown>>;
}

type Pair = new () => Record<0 | 1, HibernatableWebSocket>;

/**
 * A Durable Object class that runs an app's websocket routes (channels, topics) with the hibernation
 * API: export it from the Worker, bind it (`durable_objects` in wrangler's config), and forward each
 * room's upgrade to its object with {@link forwardTo}. Topics reach every socket of the object; a
 * socket's params and topics are kept with it, so after the object wakes from hibernation its channel
 * resumes (params and `before` run again, `onOpen` does not) and it is back in its topics.
 *
 * @example
 * export const ChatRooms = channelHost(chat);           // chat: app.ws("/chat/:room", Chat)
 * const front = createApp();
 * front.get("/chat/:room", forwardTo("ROOMS", (ctx) => ctx.request.pathParams.room));
 * export default front;
 */
export function channelHost<TEnv>(app: HostedApp<TEnv>): ChannelHostClass<TEnv> {
  return class ChannelHost {
    readonly #state: DurableObjectState;
    readonly #env: TEnv;
    readonly #controllers = new Map<HibernatableWebSocket, SocketSink | Promise<SocketSink>>();

    constructor(state: DurableObjectState, env: TEnv) {
      this.#state = state;
      this.#env = env;
      // Woken from hibernation: every socket's channel comes back, so that topics reach them all.
      for (const socket of state.getWebSockets()) this.#resume(socket);
    }

    async fetch(request: Request): Promise<Response> {
      const shim: UpgradeShim = (upgrade, open, options) => {
        const WebSocketPair = (globalThis as { WebSocketPair?: Pair }).WebSocketPair!;
        const pair = new WebSocketPair();
        const server = pair[1];
        this.#state.acceptWebSocket(server);
        const attachment: Attachment = { url: upgrade.url, headers: [...upgrade.headers], topics: [] };
        server.serializeAttachment(attachment);
        this.#controllers.set(server, open(transport(server)));
        const init: ResponseInit & { webSocket: unknown } = { status: 101, webSocket: pair[0] };
        if (options.protocol !== undefined) init.headers = { "sec-websocket-protocol": options.protocol };
        return new Response(null, init);
      };
      return hostedFetch(app, shim, false)(request, this.#env);
    }

    async webSocketMessage(socket: HibernatableWebSocket, message: string | ArrayBuffer): Promise<void> {
      (await this.#controller(socket)).receive(message);
    }

    async webSocketClose(socket: HibernatableWebSocket, code: number, reason: string): Promise<void> {
      const controller = await this.#controller(socket);
      try {
        socket.close(code === 1005 || code === 1006 ? 1000 : code, reason);
      } catch {
        // Already closed.
      }
      controller.closed(code, reason);
      this.#controllers.delete(socket);
    }

    async webSocketError(socket: HibernatableWebSocket): Promise<void> {
      (await this.#controller(socket)).closed(1006, "");
      this.#controllers.delete(socket);
    }

    #controller(socket: HibernatableWebSocket): SocketSink | Promise<SocketSink> {
      return this.#controllers.get(socket) ?? this.#resume(socket);
    }

    // Replays the socket's upgrade request through the app, marked as resumed, over the same socket.
    #resume(socket: HibernatableWebSocket): Promise<SocketSink> {
      const attachment = socket.deserializeAttachment() as Attachment;
      const request = new Request(attachment.url, { headers: attachment.headers });
      let controller: SocketSink | undefined;
      const shim: UpgradeShim = (_request, open) => {
        controller = open(transport(socket));
        for (const topic of attachment.topics) {
          const presence = attachment.presence?.[topic];
          controller.subscribe(topic, presence === undefined ? undefined : { presence });
        }
        for (const tag of attachment.tags ?? []) controller.tag(tag);
        return new Response(null, { status: 204 });
      };
      const resumed = Promise.resolve(hostedFetch(app, shim, true)(request, this.#env)).then(() => {
        // The path only: the query may hold a token (`jwt({ websocketToken: "query" })`).
        if (controller === undefined)
          throw new Error(`The route of ${new URL(attachment.url).pathname} no longer accepts the socket`);
        return controller;
      });
      this.#controllers.set(socket, resumed);
      return resumed;
    }
  };
}

// The socket as a transport, its topics and tags kept with it through hibernation.
function transport(socket: HibernatableWebSocket): SocketTransport {
  return Object.assign(standardTransport(socket), {
    topicsChanged(topics: readonly string[]) {
      socket.serializeAttachment({ ...(socket.deserializeAttachment() as Attachment), topics });
    },
    tagsChanged(tags: readonly string[]) {
      socket.serializeAttachment({ ...(socket.deserializeAttachment() as Attachment), tags });
    },
    presenceChanged(topic: string, data: unknown) {
      const attachment = socket.deserializeAttachment() as Attachment;
      const presence = { ...attachment.presence };
      if (data === undefined) delete presence[topic];
      else presence[topic] = data;
      socket.serializeAttachment({ ...attachment, presence });
    },
  });
}

/**
 * A route handler for the Worker: forwards the request (a websocket upgrade, or any request for the
 * room) to the Durable Object named by `name`, in the namespace bound as `binding`.
 *
 * @example
 * front.get("/chat/:room", forwardTo("ROOMS", (ctx) => ctx.request.pathParams.room));
 */
export function forwardTo(binding: string, name: (ctx: Context<unknown>) => string): BlockHandler<unknown> {
  return (ctx) => {
    const namespace = (ctx.env as Record<string, DurableObjectNamespace | undefined> | undefined)?.[binding];
    if (namespace === undefined) throw new Error(`No Durable Object binding named ${binding}`);
    return namespace.get(namespace.idFromName(name(ctx))).fetch(ctx.request.raw);
  };
}
