/** A websocket message: text, or the bytes of a binary frame. */
export type SocketMessage = string | Uint8Array;

/** The `readyState` values, as in the WHATWG `WebSocket`. */
export type SocketReadyState = 0 | 1 | 2 | 3;

/**
 * A topic whose messages have a type: `Chat.topic(name)` of a channel, whose messages are the channel's
 * `out` messages, written as the channel writes them (JSON). Publish to it with `app.publish`,
 * `ch.publish` or a `topicEmitter`, and subscribe a channel's socket with `ch.subscribe`: a message of
 * another shape is a type error.
 */
export interface Topic<TMessage> {
  /** The topic's name. */
  readonly name: string;
  /** A message as the topic's subscribers receive it (a property: its parameter is checked strictly). */
  readonly encode: (message: TMessage) => string | Uint8Array;
}

/** Options of `publish`. */
export interface PublishOptions {
  /** Also deliver to the publishing socket (default: every subscriber but the sender). */
  readonly self?: boolean;
}

/**
 * How a socket joins a topic: from where, for a topic that keeps a history (`createApp({ history })`),
 * and as a member of its presence.
 */
export interface SubscribeOptions {
  /**
   * The position of the last message received (given to `send`): what was published after it is
   * replayed first, in order, or the recovery says there is a gap.
   */
  readonly since?: string | undefined;
  /** Sends each message with its position, for the client to keep. Default: the message alone. */
  readonly send?: ((message: string | Uint8Array, position: string) => unknown) | undefined;
  /**
   * Joins the topic's presence with this data (JSON: a user's id and name…): `app.presence(topic)`
   * lists it on every instance, and `app.onPresence(topic, …)` hears it join and leave.
   */
  readonly presence?: unknown;
}

/** What a subscription with `since` recovered. */
export interface Recovery {
  /** Whether every message after `since` was replayed, in order, before the live ones. */
  readonly recovered: boolean;
  /** How many messages were replayed. */
  readonly replayed: number;
  /**
   * Why not, so the client catches up another way (reloads the state): `"expired"` (the history no
   * longer reaches back to `since`, or was lost), `"unavailable"` (it could not be read), `"invalid"`
   * (`since` is not a position).
   */
  readonly gap?: "expired" | "unavailable" | "invalid";
}

/** A websocket connection, the same on every runtime. */
export interface Socket {
  /** Sends text or binary data. Ignored once the socket is closing or closed. */
  send(data: string | Uint8Array | ArrayBuffer): void;
  /** Closes the connection (default code 1000). */
  close(code?: number, reason?: string): void;
  /** Adds a listener for messages (text as `string`, binary as `Uint8Array`). */
  onMessage(listener: (message: SocketMessage) => unknown): void;
  /** Adds a listener for the close, with the code and reason the peer (or we) gave. */
  onClose(listener: (code: number, reason: string) => unknown): void;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: SocketReadyState;
  /**
   * Bytes sent and not yet handed to the network. Past `limits.wsBufferedAmount` (a client that does
   * not read) the socket closes with 1008.
   */
  readonly bufferedAmount: number;
  /**
   * Receives the messages published to a topic from now on — by any socket or `app.publish`, on this
   * instance or, with a backplane (`createApp({ pubsub })`), on any other. Left on close.
   */
  subscribe(topic: string): void;
  /**
   * Receives a topic's messages; for a topic with a history, each `send` with its position, and with
   * `since` what was missed first. Resolves what was recovered (always `recovered` without `since`).
   */
  subscribe(topic: string, options: SubscribeOptions): Promise<Recovery>;
  /** Stops receiving a topic. */
  unsubscribe(topic: string): void;
  /** Sends a message to a topic's subscribers: every one but this socket, unless `{ self: true }`. */
  publish(topic: string, message: string | Uint8Array, options?: PublishOptions): void;
  /**
   * Tags this socket (`user:42`, `admin`…), so that the app can reach it from any instance:
   * `app.disconnect({ tag })`, `app.join({ tag }, topic)`, `app.leave({ tag }, topic)`. Dropped on close.
   */
  tag(name: string): void;
}

/**
 * Whether an app may close a websocket with `code`: 1000 (normal), 1001 (going away), 1007 (a message
 * it cannot accept), 1008 (policy),
 * 1009 (too big), 1011 (error), or 3000–4999 (the app's own). The others belong to the protocol.
 */
export function isSendableCloseCode(code: unknown): code is number {
  return (
    code === 1000 ||
    code === 1001 ||
    code === 1007 ||
    code === 1008 ||
    code === 1009 ||
    code === 1011 ||
    (typeof code === "number" && Number.isInteger(code) && code >= 3000 && code <= 4999)
  );
}
