import {
  isSendableCloseCode,
  type PublishOptions,
  type Recovery,
  type Socket,
  type SocketMessage,
  type SocketReadyState,
  type SubscribeOptions,
} from "../context/socket.ts";
import type { TopicHub } from "../pubsub/hub.ts";
import type { Broadcast, NativeTopics, SocketSink, SocketTransport } from "../runtime/runtime.ts";

/** The limits a socket enforces (from the app's `limits`). */
export interface SocketLimits {
  /** Largest message received, in bytes (over it: close 1009). */
  readonly wsMessageSize: number;
  /** Most bytes queued for a client that does not read (over it: close 1008). */
  readonly wsBufferedAmount: number;
  /** Most messages whose asynchronous handler has not finished (over it: close 1008). */
  readonly wsPendingMessages: number;
}

const encoder = new TextEncoder();
const NOTHING_MISSED: Recovery = { recovered: true, replayed: 0 };
const CLOSED: Recovery = { recovered: false, replayed: 0, gap: "unavailable" };
/** The close code for a peer that sends faster, or reads slower, than the limits allow. */
const BACKPRESSURE_CLOSE_CODE = 1008;

/**
 * The runtime-neutral socket handed to handlers. Shims feed it what their runtime reports
 * (`receive`, `closed`); it enforces the limits (message size, bytes queued for a client that does
 * not read, messages waiting on asynchronous handlers) and routes listener errors to `onError`.
 */
export class SocketController implements Socket, SocketSink {
  readonly #transport: SocketTransport;
  readonly #limits: SocketLimits;
  readonly #messageListeners: ((message: SocketMessage) => unknown)[] = [];
  readonly #closeListeners: ((code: number, reason: string) => unknown)[] = [];
  #closed = false;
  #pending = 0;
  /** Called with any error a listener throws (or rejects with). */
  onError: (error: unknown) => void;

  readonly #hub: TopicHub | undefined;

  constructor(
    transport: SocketTransport,
    limits: SocketLimits,
    onError: (error: unknown) => void,
    hub?: TopicHub,
  ) {
    this.#transport = transport;
    this.#limits = limits;
    this.onError = onError;
    this.#hub = hub;
  }

  /** The runtime's own topics for this socket, where it has them. */
  get native(): NativeTopics | undefined {
    return this.#transport.native;
  }

  subscribe(topic: string): void;
  subscribe(topic: string, options: SubscribeOptions): Promise<Recovery>;
  subscribe(topic: string, options?: SubscribeOptions): Promise<Recovery> | undefined {
    if (this.readyState === 3) return options === undefined ? undefined : Promise.resolve(CLOSED);
    const recovery = this.#topics().subscribe(this, topic, options);
    this.#transport.topicsChanged?.(this.#topics().topicsOf(this));
    if (options?.presence !== undefined) this.#transport.presenceChanged?.(topic, options.presence);
    if (options === undefined) return undefined;
    return recovery ?? Promise.resolve(NOTHING_MISSED);
  }

  unsubscribe(topic: string): void {
    this.#topics().unsubscribe(this, topic);
    this.#transport.topicsChanged?.(this.#topics().topicsOf(this));
    this.#transport.presenceChanged?.(topic, undefined);
  }

  publish(topic: string, message: string | Uint8Array, options: PublishOptions = {}): void {
    // A closed socket has left its topics: there is no one to leave out (and Bun cannot publish from it).
    this.#topics().publish(topic, message, options.self || this.#closed ? undefined : this);
  }

  tag(name: string): void {
    if (this.readyState === 3) return;
    this.#topics().tag(this, name);
    this.#transport.tagsChanged?.(this.#topics().tagsOf(this));
  }

  #topics(): TopicHub {
    if (this.#hub === undefined) throw new Error("This socket belongs to no app: topics need one");
    return this.#hub;
  }

  get readyState(): SocketReadyState {
    return this.#closed ? 3 : (this.#transport.readyState as SocketReadyState);
  }

  get bufferedAmount(): number {
    return this.#transport.bufferedAmount;
  }

  /** Sends; `false` when the message will not reach the client (not open, or closed for not reading). */
  send(data: string | Uint8Array | ArrayBuffer): boolean {
    if (this.readyState !== 1) return false;
    this.#transport.send(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
    return this.#flowing();
  }

  /** Sends a topic's message, which goes to many sockets (the runtime may reuse its frame). */
  broadcast(broadcast: Broadcast): boolean {
    if (this.readyState !== 1) return false;
    if (this.#transport.sendBroadcast === undefined) this.#transport.send(broadcast.data);
    else this.#transport.sendBroadcast(broadcast);
    return this.#flowing();
  }

  // Whether the client keeps up: one that does not read would make the runtime buffer without end.
  #flowing(): boolean {
    if (this.#transport.bufferedAmount > this.#limits.wsBufferedAmount) {
      this.close(BACKPRESSURE_CLOSE_CODE, "Client too slow: send buffer over the limit");
      return false;
    }
    return true;
  }

  close(code = 1000, reason = ""): void {
    checkCloseCode(code);
    if (this.readyState >= 2) return;
    this.#transport.close(code, truncateReason(reason));
  }

  onMessage(listener: (message: SocketMessage) => unknown): void {
    this.#messageListeners.push(listener);
  }

  onClose(listener: (code: number, reason: string) => unknown): void {
    this.#closeListeners.push(listener);
  }

  /** Shims call this for each message received. */
  receive(data: string | ArrayBuffer | Uint8Array): void {
    if (this.#closed) return;
    const message =
      typeof data === "string" ? data : data instanceof Uint8Array ? data : new Uint8Array(data);
    const max = this.#limits.wsMessageSize;
    // A UTF-16 unit is at most 3 UTF-8 bytes: only long text needs encoding to be measured.
    const tooBig =
      typeof message === "string"
        ? message.length * 3 > max && encoder.encode(message).byteLength > max
        : message.byteLength > max;
    if (tooBig) {
      this.close(1009, "Message too big");
      return;
    }
    if (this.#pending >= this.#limits.wsPendingMessages) {
      this.close(BACKPRESSURE_CLOSE_CODE, "Too many messages waiting to be handled");
      return;
    }
    for (const listener of this.#messageListeners) this.#call(() => listener(message), true);
  }

  /** Shims call this once the connection is closed, whoever closed it. */
  closed(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub?.leave(this);
    for (const listener of this.#closeListeners) this.#call(() => listener(code, reason), false);
  }

  #call(run: () => unknown, counted: boolean): void {
    try {
      const result = run();
      if (!(result instanceof Promise)) return;
      if (counted) this.#pending++;
      result.then(
        () => {
          if (counted) this.#pending--;
        },
        (error: unknown) => {
          if (counted) this.#pending--;
          this.onError(error);
        },
      );
    } catch (error) {
      this.onError(error);
    }
  }
}

// The close frame allows 123 bytes of reason.
function truncateReason(reason: string): string {
  if (reason.length <= 41) return reason;
  let out = reason;
  while (encoder.encode(out).byteLength > 123) out = out.slice(0, -1);
  return out;
}

/** Throws unless an app may close a websocket with `code` (1000, 1001, 1007, 1008, 1009, 1011, 3000–4999). */
export function checkCloseCode(code: number): void {
  // Other codes are reserved for the protocol: an app closing with one is a bug.
  if (!isSendableCloseCode(code)) {
    throw new RangeError(`Invalid websocket close code ${code}: use 1000 or 3000–4999`);
  }
}
