// The runtime boundary: what a runtime can do for the core, as one interface. The core (app, ws,
// middleware, sse) asks a `Runtime` and imports no adapter; each adapter implements one
// (`src/adapters/*-runtime.ts`; the Node adapter's is in `node-request.ts`) and hands it to the app:
// the root `src/create-app.ts` gives an app the runtime it finds itself on (Bun, Deno, workerd), a
// server adapter gets the app's `fetch` for its own from `fetchOn` (`src/app/states.ts`). Nothing
// is written onto a runtime's objects.
import type { FileAccess } from "./files.ts";

/** A topic message: text, or binary bytes (kept apart on every hop). */
export type TopicMessage = string | Uint8Array;

/**
 * A runtime's native pub/sub for one socket (Bun's `ws.subscribe`/`ws.publish`/`server.publish`): the
 * hub then lets the runtime fan messages out to its sockets.
 */
export interface NativeTopics {
  /** The socket receives the topic's messages. */
  subscribe(topic: string): void;
  /** The socket stops receiving the topic's messages. */
  unsubscribe(topic: string): void;
  /** To the topic's subscribers but this socket. */
  publish(topic: string, message: TopicMessage): void;
  /** To every subscriber of the topic on this server. */
  publishAll(topic: string, message: TopicMessage): void;
}

/**
 * One message on its way to many sockets (a topic's fan-out): a runtime that can prepare its frame once
 * keeps it in `prepared` for the next socket.
 */
export interface Broadcast {
  /** The message. */
  readonly data: string | Uint8Array;
  /** The runtime's frame for it, made by the first socket and reused by the others. */
  prepared?: unknown;
}

/** What a runtime's websocket must offer for Portico to drive it. */
export interface SocketTransport {
  /** Sends text or bytes. */
  send(data: string | Uint8Array): void;
  /** Sends a message that goes to many sockets, its frame prepared once (default: `send`). */
  sendBroadcast?(broadcast: Broadcast): void;
  /** Closes the connection with a code and a reason. */
  close(code: number, reason: string): void;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** Bytes queued by `send` and not yet handed to the network. */
  readonly bufferedAmount: number;
  /** Told the socket's topics when they change (a hibernating Durable Object keeps them with the socket). */
  topicsChanged?(topics: readonly string[]): void;
  /** Told the socket's tags when they change (kept with the socket the same way). */
  tagsChanged?(tags: readonly string[]): void;
  /** Told the socket's presence data in a topic when it joins (or, `undefined`, leaves) it: kept the same way. */
  presenceChanged?(topic: string, data: unknown): void;
  /** The runtime's own topics for this socket (Bun's), which then deliver topic messages. */
  readonly native?: NativeTopics | undefined;
}

/** What a runtime feeds with what its socket reports: Portico's session for the socket. */
export interface SocketSink {
  /** A message arrived (text, or the bytes of a binary frame). */
  receive(message: string | ArrayBuffer | Uint8Array): void;
  /** The connection closed. */
  closed(code: number, reason: string): void;
  /** Joins a topic again (a socket woken from hibernation), in its presence if it was. */
  subscribe(topic: string, options?: { readonly presence?: unknown }): unknown;
  /** Takes a tag again (a socket woken from hibernation). */
  tag(name: string): void;
}

/** Opens the session once the runtime reports the socket open; returns the sink to feed. */
export type OpenSocket = (transport: SocketTransport) => SocketSink;

/** What the app decided about an upgrade, for the runtime to apply. */
export interface UpgradeOptions {
  /** The subprotocol the app chose among the client's (sent back in `Sec-WebSocket-Protocol`). */
  readonly protocol: string | undefined;
  /** The largest message the app accepts, in bytes (runtimes that can refuse earlier do). */
  readonly maxMessageSize: number;
}

/**
 * A runtime's way to accept an upgrade. Returns the `Response` to send (Deno, workerd), or
 * `undefined` when the runtime answers the handshake itself (Bun, the Node adapter).
 */
export type UpgradeShim = (
  request: Request,
  open: OpenSocket,
  options: UpgradeOptions,
) => Response | undefined;

/** A content coding a runtime may compress synchronously. */
export type Coding = "br" | "gzip" | "deflate";

/** Compresses bytes in one call. */
export type Compressor = (bytes: Uint8Array) => Uint8Array;

/**
 * What a runtime can do for one request, asked by the core with the request and the `env` the runtime
 * passed to `fetch`. Every member answers only for requests its runtime served.
 */
export interface Runtime {
  /** Its name, for messages. */
  readonly name: string;
  /**
   * The address of the connection's other end. Asked at most once per request, and only while the
   * runtime still holds the request open (the core keeps the answer).
   */
  peer(request: Request, env: unknown): string | undefined;
  /** How to accept a websocket upgrade of this request, or `undefined` where it cannot. */
  upgrade(request: Request, env: unknown): UpgradeShim | undefined;
  /** Lifts the runtime's idle timeout for one long-lived response (an event stream), where it has one. */
  keepOpen(request: Request, env: unknown): void;
  /** A synchronous compressor faster than `CompressionStream` (Node's zlib), else `undefined`. */
  compressor(coding: Coding): Compressor | undefined;
  /** True when the request replays the upgrade of a socket woken from hibernation (a Durable Object's). */
  resumed(request: Request): boolean;
  /**
   * The connection's scheme, where the server that opened it says (a server adapter without TLS):
   * the URL then carries it whatever an absolute-form target claimed (`GET https://…` over plain HTTP).
   * Absent: the scheme of the URL the runtime gives.
   */
  readonly scheme?: "http" | "https";
  /**
   * True when the request's headers stop being readable once its websocket handshake is answered
   * (Deno): the core then keeps a copy for the socket's life. Elsewhere nothing is copied, which an
   * idle socket's memory shows (a `Headers` per socket cost Node ~1.2 KiB).
   */
  readonly releasesUpgradedRequest?: boolean;
  /** Its file system, where it has one (`serveStatic()` reads through it): Node, Bun and Deno. */
  readonly files?: FileAccess | undefined;
  /**
   * Makes a store that follows asynchronous work (Node's `AsyncLocalStorage`), where the runtime has one:
   * Node, Bun, Deno, and Workers with `nodejs_compat`. `createApp({ asyncContext: true })` keeps each
   * request's context in it.
   */
  readonly asyncStorage?: (() => AsyncStorage | undefined) | undefined;
}

/** What `AsyncLocalStorage` offers the core: a value for a call and everything it starts. */
export interface AsyncStorage {
  /** Runs `callback` with `value` as the store, for it and the asynchronous work it starts. */
  run<TResult>(value: unknown, callback: () => TResult): TResult;
  /** The store where this runs, or `undefined` outside any `run`. */
  getStore(): unknown;
}

/** The runtime of an app with none to ask (`app.request()` in tests, an unknown host). */
export const NO_RUNTIME: Runtime = {
  name: "none",
  peer: () => undefined,
  upgrade: () => undefined,
  keepOpen: () => {},
  compressor: () => undefined,
  resumed: () => false,
};

/** A `fetch` for the requests of one runtime (what a server adapter calls). */
export type RuntimeFetch = (
  request: Request,
  env?: unknown,
  executionContext?: unknown,
) => Response | Promise<Response>;
