import type { Context } from "../context/context.ts";
import { type Connectable, connectKey, pathKeysKey } from "../context/handler.ts";
import { runSteps, type Step } from "../context/run-steps.ts";
import type { PublishOptions, Recovery, Socket, SocketMessage, SubscribeOptions } from "../context/socket.ts";
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

/** What every channel instance offers. */
export interface ChannelHelpers<TErrors> {
  /** The request context of the upgrade (its `request.id` stays the connection's id). */
  readonly context: Context;
  /** The declared error classes: `throw new ch.errors.RoomFull()` closes with the error's code. */
  readonly errors: ErrorClasses<TErrors>;
  /** The socket. */
  readonly socket: Socket;
  /** Sends text or binary data. */
  send(data: string | Uint8Array | ArrayBuffer): void;
  /** Closes the connection (default 1000). */
  close(code?: number, reason?: string): void;
  /** Receives a topic's messages (see `Socket.subscribe`); left on close. */
  subscribe(topic: string): void;
  /** Receives a topic's messages with their positions, and with `since` what was missed (see `Socket.subscribe`). */
  subscribe(topic: string, options: SubscribeOptions): Promise<Recovery>;
  /** Stops receiving a topic. */
  unsubscribe(topic: string): void;
  /** Sends to a topic's subscribers, on every instance: all but this connection, unless `{ self: true }`. */
  publish(topic: string, message: string | Uint8Array, options?: PublishOptions): void;
  /** Tags this connection, for the app's cross-instance control (see `Socket.tag`). */
  tag(name: string): void;
}

/** The channel instance `ch` that callbacks get; `params` exists only when declared. */
export type ChannelInstance<TParams extends ParamsDeclaration, TErrors> = ChannelHelpers<TErrors> &
  ([TParams] extends [never] ? unknown : { readonly params: InferParams<TParams> });

/** What `defineChannel` takes. */
export interface ChannelDefinition<TParams extends ParamsDeclaration, TErrors> {
  /**
   * The subprotocols it speaks, in order of preference: the first one the client offers is chosen
   * and sent back. A client that offers only others is refused (400). Without it, none is chosen.
   */
  readonly protocols?: readonly string[];
  /** The parameters (path and query, read from the upgrade request). */
  readonly params?: TParams;
  /** The errors it may raise; a raise closes the socket with the error's code (3000–4999, else 4000). */
  readonly errors?: ErrorDeclarations<TErrors>;
  /** Run in order after params are parsed, before `onOpen`. */
  readonly before?: readonly ((ch: ChannelInstance<TParams, TErrors>) => unknown)[];
  /** Runs once the connection is open and params are parsed. */
  onOpen?(ch: ChannelInstance<TParams, TErrors>): unknown;
  /** Runs for each message: a `string`, or a `Uint8Array` for binary frames. */
  onMessage?(ch: ChannelInstance<TParams, TErrors>, message: SocketMessage): unknown;
  /** Runs once the connection is closed, with the close code and reason. */
  onClose?(ch: ChannelInstance<TParams, TErrors>, code: number, reason: string): unknown;
}

/** A channel: route it with `app.ws(path, Channel)`. */
export interface Channel<TParams extends ParamsDeclaration = never, TErrors = unknown> extends Connectable {
  /** The params declaration. */
  readonly params: TParams | undefined;
  /** The declared error classes. */
  readonly errors: ErrorClasses<TErrors>;
}

class ChannelRun implements ChannelHelpers<unknown> {
  readonly context: Context;
  readonly errors: ErrorClasses<unknown>;
  readonly socket: Socket;
  params: Record<string, unknown> | undefined = undefined;

  constructor(context: Context, errors: ErrorClasses<unknown>, socket: Socket) {
    this.context = context;
    this.errors = errors;
    this.socket = socket;
  }

  send(data: string | Uint8Array | ArrayBuffer): void {
    this.socket.send(data);
  }

  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }

  subscribe(topic: string): void;
  subscribe(topic: string, options: SubscribeOptions): Promise<Recovery>;
  subscribe(topic: string, options?: SubscribeOptions): Promise<Recovery> | undefined {
    if (options !== undefined) return this.socket.subscribe(topic, options);
    this.socket.subscribe(topic);
    return undefined;
  }

  unsubscribe(topic: string): void {
    this.socket.unsubscribe(topic);
  }

  publish(topic: string, message: string | Uint8Array, options?: PublishOptions): void {
    this.socket.publish(topic, message, options);
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
export function defineChannel<TParams extends ParamsDeclaration = never, TErrors = Record<never, never>>(
  definition: ChannelDefinition<TParams, TErrors>,
): Channel<TParams, TErrors> {
  if (definition.params?.form !== undefined || definition.params?.json !== undefined) {
    throw new TypeError("Channels read path and query params only: an upgrade request has no body");
  }
  const errors = defineErrors(definition.errors) as ErrorClasses<unknown>;
  const hooks = definition as unknown as {
    before?: readonly Step<ChannelRun>[];
    onOpen?: Step<ChannelRun>;
    onMessage?: (ch: ChannelRun, message: SocketMessage) => unknown;
    onClose?: (ch: ChannelRun, code: number, reason: string) => unknown;
  };
  // params, before…, onOpen: what runs before the channel is open.
  const compiled = definition.params === undefined ? undefined : compileParams(definition.params);
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
    [connectKey](
      socket: Socket,
      ctx: Context,
      report: (error: unknown) => void,
      resumed = false,
    ): (error: unknown) => void {
      const ch = new ChannelRun(ctx, errors, socket);
      const onError = (error: unknown): void => closeWithError(socket, error, report);
      // Messages that arrive while params and `before` run wait for `onOpen`, in order; `onClose`
      // runs only for a channel that opened (its params are then always set).
      let queue: SocketMessage[] | undefined = [];
      let opened = false;
      let closedWhileOpening: [code: number, reason: string] | undefined;
      socket.onMessage((message) => {
        if (queue !== undefined) queue.push(message);
        else return hooks.onMessage?.(ch, message);
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
        for (const message of waiting) await hooks.onMessage?.(ch, message);
      };
      try {
        const pending = runSteps(resumed ? resuming : opening, ch);
        (pending ? pending.then(replay) : replay()).catch(onError);
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
