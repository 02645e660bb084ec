import type { Context } from "../context/context.ts";
import { type Connectable, connectKey, pathKeysKey } from "../context/handler.ts";
import type { RouteDoc } from "../context/route-doc.ts";
import { runSteps, type Step } from "../context/run-steps.ts";
import type {
  PublishOptions,
  Recovery,
  Socket,
  SocketMessage,
  SubscribeOptions,
  Topic,
} from "../context/socket.ts";
import { defineErrors, type ErrorClasses, type ErrorDeclarations } from "../errors/define-error.ts";
import { isHttpError } from "../errors/http-error.ts";
import { ParamsError } from "../errors/param-errors.ts";
import {
  compileParams,
  type InferParams,
  type ParamsDeclaration,
  paramsStep,
} from "../params/parse-params.ts";
import { toWords } from "../wire/contract.ts";
import {
  type ChannelMessages,
  type CompiledMessages,
  channelTopic,
  compileMessages,
  type InMessage,
  type InvalidMessage,
  type OutMessage,
  type TopicMessageOf,
} from "./channel-messages.ts";

/**
 * What every channel instance offers (`TOut`: what `send` takes, declared `out` messages or raw data;
 * `TTopic`: what its topics carry).
 */
export interface ChannelHelpers<
  TErrors,
  TOut = string | Uint8Array | ArrayBuffer,
  TTopic = string | Uint8Array,
> {
  /** The request context of the upgrade (its `request.id` stays the connection's id). */
  readonly context: Context;
  /** The declared error classes: `throw new ch.errors.RoomFull()` closes with the error's code. */
  readonly errors: ErrorClasses<TErrors>;
  /** The socket. */
  readonly socket: Socket;
  /** Sends a declared `out` message (as JSON), or text or binary data when none is declared. */
  send(data: TOut): void;
  /** Closes the connection (default 1000). */
  close(code?: number, reason?: string): void;
  /** Receives a topic's messages (see `Socket.subscribe`); left on close. */
  subscribe(topic: string | Topic<TTopic>): void;
  /** Receives a topic's messages with their positions, and with `since` what was missed (see `Socket.subscribe`). */
  subscribe(topic: string | Topic<TTopic>, options: SubscribeOptions): Promise<Recovery>;
  /** Stops receiving a topic. */
  unsubscribe(topic: string | Topic<TTopic>): void;
  /**
   * Sends to a topic's subscribers, on every instance: all but this connection, unless `{ self: true }`.
   * A typed topic (`Chat.topic(name)`) takes the channel's `out` messages, written as `send` writes them.
   */
  publish<TMessage>(topic: Topic<TMessage>, message: TMessage, options?: PublishOptions): void;
  /** Sends text or bytes to a topic named by a string (see the typed form above). */
  publish(topic: string, message: string | Uint8Array, options?: PublishOptions): void;
  /** Tags this connection, for the app's cross-instance control (see `Socket.tag`). */
  tag(name: string): void;
}

/** The channel instance `ch` that callbacks get; `params` exists only when declared. */
export type ChannelInstance<
  TParams extends ParamsDeclaration,
  TErrors,
  TMessages = Record<never, never>,
> = ChannelHelpers<TErrors, OutMessage<TMessages>, TopicMessageOf<TMessages>> &
  ([TParams] extends [never] ? unknown : { readonly params: InferParams<TParams> });

/** What `defineChannel` takes. */
export interface ChannelDefinition<
  TParams extends ParamsDeclaration,
  TErrors,
  TMessages = Record<never, never>,
> {
  /**
   * The subprotocols it speaks, in order of preference: the first one the client offers is chosen
   * and sent back. A client that offers only others is refused (400). Without it, none is chosen.
   */
  readonly protocols?: readonly string[];
  /** The parameters: path, query, headers and cookies of the upgrade request. */
  readonly params?: TParams;
  /** The errors it may raise; a raise closes the socket with the error's code (3000–4999, else 4000). */
  readonly errors?: ErrorDeclarations<TErrors>;
  /**
   * The messages, as JSON objects: `in` (what clients send) is validated on receipt and typed in
   * `onMessage`; `out` (what the channel sends) is typed in `send`. Both are documented (AsyncAPI) and
   * typed in the client. A received message that fails `in` closes the socket with 1007 and the first
   * issue as the reason, unless `onInvalidMessage` answers instead.
   */
  readonly messages?: TMessages;
  /** What the documents say of it (summary, description, tags, deprecated, hidden). */
  readonly doc?: RouteDoc;
  /** Run in order after params are parsed, before `onOpen`. */
  readonly before?: readonly ((ch: ChannelInstance<TParams, TErrors, TMessages>) => unknown)[];
  /** Runs once the connection is open and params are parsed. */
  onOpen?(ch: ChannelInstance<TParams, TErrors, TMessages>): unknown;
  /**
   * Runs for each message: the validated `in` message when declared; else a `string`, or a
   * `Uint8Array` for binary frames.
   */
  onMessage?(ch: ChannelInstance<TParams, TErrors, TMessages>, message: InMessage<TMessages>): unknown;
  /** Answers a message that fails `in` (instead of closing with 1007): send an error, close, or ignore it. */
  onInvalidMessage?(ch: ChannelInstance<TParams, TErrors, TMessages>, invalid: InvalidMessage): unknown;
  /** Runs once the connection is closed, with the close code and reason. */
  onClose?(ch: ChannelInstance<TParams, TErrors, TMessages>, code: number, reason: string): unknown;
}

/** A channel: route it with `app.ws(path, Channel)`. */
export interface Channel<
  TParams extends ParamsDeclaration = never,
  TErrors = unknown,
  TMessages = Record<never, never>,
> extends Connectable {
  /** The params declaration. */
  readonly params: TParams | undefined;
  /** The declared error classes. */
  readonly errors: ErrorClasses<TErrors>;
  /** The declared messages (`undefined` when none are). */
  readonly messages: TMessages | undefined;
  /** What the documents say of it (`{}` when nothing is said). */
  readonly doc: RouteDoc;
  /**
   * A topic whose messages are this channel's `out` messages (raw data when none are declared),
   * written as `ch.send` writes them: `app.publish(Chat.topic("room:1"), { text: "hi" })` is typed.
   */
  topic(name: string): Topic<TopicMessageOf<TMessages>>;
}

class ChannelRun implements ChannelHelpers<unknown, unknown, unknown> {
  readonly context: Context;
  readonly errors: ErrorClasses<unknown>;
  readonly socket: Socket;
  readonly #write: ((value: unknown) => string | Uint8Array | ArrayBuffer) | undefined;
  params: Record<string, unknown> | undefined = undefined;

  constructor(
    context: Context,
    errors: ErrorClasses<unknown>,
    socket: Socket,
    messages: CompiledMessages | undefined,
  ) {
    this.context = context;
    this.errors = errors;
    this.socket = socket;
    this.#write = messages?.write;
  }

  send(data: unknown): void {
    this.socket.send(
      this.#write === undefined ? (data as string | Uint8Array | ArrayBuffer) : this.#write(data),
    );
  }

  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }

  subscribe(topic: string | Topic<unknown>): void;
  subscribe(topic: string | Topic<unknown>, options: SubscribeOptions): Promise<Recovery>;
  subscribe(topic: string | Topic<unknown>, options?: SubscribeOptions): Promise<Recovery> | undefined {
    const name = typeof topic === "string" ? topic : topic.name;
    if (options !== undefined) return this.socket.subscribe(name, options);
    this.socket.subscribe(name);
    return undefined;
  }

  unsubscribe(topic: string | Topic<unknown>): void {
    this.socket.unsubscribe(typeof topic === "string" ? topic : topic.name);
  }

  publish(topic: string | Topic<unknown>, message: unknown, options?: PublishOptions): void {
    if (typeof topic === "string") this.socket.publish(topic, message as string | Uint8Array, options);
    else this.socket.publish(topic.name, topic.encode(message), options);
  }

  tag(name: string): void {
    this.socket.tag(name);
  }
}

/**
 * Declares a websocket channel, with the same `params`, `errors` and `before` as endpoints.
 * A parameter error closes with 4000 and its message; a declared error with its code and name;
 * anything else with 1011 (and is logged with the request id).
 *
 * @example
 * const Chat = defineChannel({
 *   params: { path: { room: v.string() } },
 *   onOpen: (ch) => ch.send(`joined ${ch.params.path.room}`),
 *   onMessage: (ch, message) => ch.send(message),
 * });
 * app.ws("/chat/:room", Chat);
 */
export function defineChannel<
  TParams extends ParamsDeclaration = never,
  TErrors = Record<never, never>,
  const TMessages extends ChannelMessages = Record<never, never>,
>(definition: ChannelDefinition<TParams, TErrors, TMessages>): Channel<TParams, TErrors, TMessages> {
  if (definition.params?.form !== undefined || definition.params?.json !== undefined) {
    throw new TypeError("Channels read path and query params only: an upgrade request has no body");
  }
  const errors = defineErrors(definition.errors) as ErrorClasses<unknown>;
  const hooks = definition as unknown as {
    before?: readonly Step<ChannelRun>[];
    onOpen?: Step<ChannelRun>;
    onMessage?: (ch: ChannelRun, message: unknown) => unknown;
    onInvalidMessage?: (ch: ChannelRun, invalid: InvalidMessage) => unknown;
    onClose?: (ch: ChannelRun, code: number, reason: string) => unknown;
  };
  // params, before…, onOpen: what runs before the channel is open.
  const compiled = definition.params === undefined ? undefined : compileParams(definition.params);
  const messages = compileMessages(definition.messages);
  const opening: Step<ChannelRun>[] = [
    ...(compiled === undefined ? [] : [paramsStep(compiled)]),
    ...(hooks.before ?? []),
    ...(hooks.onOpen ? [hooks.onOpen] : []),
  ];
  // A socket woken from hibernation was opened before: its params and `before` run again, not `onOpen`.
  const resuming = opening.slice(0, opening.length - (hooks.onOpen ? 1 : 0));
  return Object.freeze({
    [pathKeysKey]: compiled?.pathKeys ?? [],
    protocols: definition.protocols === undefined ? undefined : Object.freeze([...definition.protocols]),
    params: definition.params,
    errors: errors as ErrorClasses<TErrors>,
    messages: definition.messages,
    doc: definition.doc ?? {},
    topic: (name: string) => channelTopic(name, messages),
    [connectKey](
      socket: Socket,
      ctx: Context,
      report: (error: unknown) => void,
      resumed = false,
    ): (error: unknown) => void {
      const ch = new ChannelRun(ctx, errors, socket, messages);
      const receive = (message: SocketMessage): unknown => {
        if (messages === undefined) return hooks.onMessage?.(ch, message);
        const read = messages.read(message, ctx.limits.jsonDepth);
        if (read.ok) return hooks.onMessage?.(ch, read.value);
        if (hooks.onInvalidMessage) return hooks.onInvalidMessage(ch, read.invalid);
        socket.close(1007, read.invalid.message);
      };
      const onError = (error: unknown): void => closeWithError(socket, error, report);
      // Messages that arrive while params and `before` run wait for `onOpen`, in order; `onClose`
      // runs only for a channel that opened (its params are then always set).
      let queue: SocketMessage[] | undefined = [];
      let opened = false;
      let closedWhileOpening: [code: number, reason: string] | undefined;
      socket.onMessage((message) => {
        if (queue !== undefined) queue.push(message);
        else return receive(message);
      });
      socket.onClose((code, reason) => {
        if (opened) return hooks.onClose?.(ch, code, reason);
        closedWhileOpening = [code, reason];
      });
      const replay = async (): Promise<void> => {
        opened = true;
        // The client left while onOpen ran: what onOpen set up still gets its onClose.
        if (closedWhileOpening !== undefined) return void (await hooks.onClose?.(ch, ...closedWhileOpening));
        const waiting = queue ?? [];
        queue = undefined;
        for (const message of waiting) await receive(message);
      };
      try {
        const pending = runSteps(resumed ? resuming : opening, ch);
        (pending ? pending.promise.then(replay) : replay()).catch(onError);
      } catch (error) {
        onError(error);
      }
      return onError;
    },
  });
}

function closeWithError(socket: Socket, error: unknown, report: (error: unknown) => void): void {
  if (error instanceof ParamsError) socket.close(4000, error.message ?? error.name);
  else if (isHttpError(error)) {
    const code = error.code >= 3000 && error.code <= 4999 ? error.code : 4000;
    socket.close(code, toWords(error.name));
  } else {
    report(error);
    socket.close(1011, "Internal error");
  }
}
