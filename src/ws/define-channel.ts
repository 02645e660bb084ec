import type { Context } from "../context/context.ts";
import { defineErrors, type ErrorClasses, type ErrorDeclarations } from "../endpoint/define-error.ts";
import { isHttpError } from "../errors/http-error.ts";
import { ParamsError } from "../errors/param-errors.ts";
import {
  type CompiledParams,
  compileParams,
  type InferParams,
  type ParamsDeclaration,
  parseParams,
} from "../params/parse-params.ts";
import { type Connectable, runnableMark } from "../router/handler.ts";
import type { Socket, SocketMessage } from "./socket.ts";
import type { SocketController } from "./socket-controller.ts";

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
}

/** The channel instance `ch` that callbacks get; `params` exists only when declared. */
export type ChannelInstance<TParams extends ParamsDeclaration, TErrors> = ChannelHelpers<TErrors> &
  ([TParams] extends [never] ? unknown : { readonly params: InferParams<TParams> });

/** What `defineChannel` takes. */
export interface ChannelDefinition<TParams extends ParamsDeclaration, TErrors> {
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

type Step = (ch: ChannelRun) => unknown;

class ChannelRun implements ChannelHelpers<unknown> {
  readonly context: Context;
  readonly errors: ErrorClasses<unknown>;
  readonly socket: SocketController;
  params: Record<string, unknown> | undefined = undefined;

  constructor(context: Context, errors: ErrorClasses<unknown>, socket: SocketController) {
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
  const compiled = definition.params === undefined ? undefined : compileParams(definition.params);
  if (definition.params?.form !== undefined || definition.params?.json !== undefined) {
    throw new TypeError("Channels read path and query params only: an upgrade request has no body");
  }
  const errors = defineErrors(definition.errors) as ErrorClasses<unknown>;
  const before = (definition.before ?? []) as unknown as readonly Step[];
  const hooks = definition as unknown as {
    onOpen?: Step;
    onMessage?: (ch: ChannelRun, message: SocketMessage) => unknown;
    onClose?: (ch: ChannelRun, code: number, reason: string) => unknown;
  };
  return Object.freeze({
    [runnableMark]: "channel" as const,
    params: definition.params,
    errors: errors as ErrorClasses<TErrors>,
    connect(socket: SocketController, ctx: Context, report: (error: unknown) => void): void {
      const ch = new ChannelRun(ctx, errors, socket);
      socket.onError = (error) => closeWithError(socket, error, report);
      // Messages that arrive while params and `before` run wait for `onOpen`, in order.
      const queue: SocketMessage[] = [];
      let ready = false;
      socket.onMessage((message) => {
        if (!ready) queue.push(message);
        else return hooks.onMessage?.(ch, message);
      });
      if (hooks.onClose) socket.onClose((code, reason) => hooks.onClose!(ch, code, reason));
      open(ch, compiled, before, hooks.onOpen)
        .then(async () => {
          ready = true;
          for (const message of queue.splice(0)) await hooks.onMessage?.(ch, message);
        })
        .catch((error: unknown) => closeWithError(socket, error, report));
    },
  });
}

async function open(
  ch: ChannelRun,
  compiled: CompiledParams | undefined,
  before: readonly Step[],
  onOpen: Step | undefined,
): Promise<void> {
  if (compiled !== undefined) ch.params = await parseParams(compiled, ch.context);
  for (const step of before) await step(ch);
  await onOpen?.(ch);
}

function closeWithError(socket: SocketController, error: unknown, report: (error: unknown) => void): void {
  if (error instanceof ParamsError) socket.close(4000, error.message ?? error.name);
  else if (isHttpError(error)) {
    const code = error.code >= 3000 && error.code <= 4999 ? error.code : 4000;
    socket.close(code, error.name);
  } else {
    report(error);
    socket.close(1011, "Internal error");
  }
}
