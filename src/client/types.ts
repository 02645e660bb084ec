import type { DeclaredView, Endpoint } from "../endpoint/define-endpoint.ts";
import type { ErrorClass, PayloadOf } from "../errors/define-error.ts";
import type { ParamErrorPayload } from "../errors/param-errors.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import type { BodySpec } from "../params/t.ts";
import type { RouteEntry } from "../router/define-routes.ts";
import type { InputOf } from "../schema/entries.ts";
import type { View } from "../view/define-view.ts";
import type { Channel } from "../ws/define-channel.ts";

/** What a caller sends for one source (a `t.body` spec's declaration, or the entries). */
export type SourceInput<TSource> =
  TSource extends BodySpec<infer TDeclaration> ? InputOf<TDeclaration> : InputOf<TSource>;
/** Path and query are required when they hold a required value; a body only with `t.body(…, { require: true })`. */
export type IsRequired<TSource, TKey> =
  TSource extends BodySpec<infer _, infer TRequire>
    ? TRequire
    : TKey extends "form" | "json"
      ? false
      : Record<never, never> extends SourceInput<TSource>
        ? false
        : true;

/**
 * The input of a call: one key per declared source (required when the source has required values),
 * and headers. Declared headers are typed as declared; others may be sent beside them.
 */
export type CallInput<TParams> = {
  -readonly [K in RequiredSources<TParams>]: SourceInput<TParams[K]>;
} & {
  -readonly [K in Exclude<keyof TParams & keyof ParamsDeclaration, RequiredSources<TParams>>]?: SourceInput<
    TParams[K]
  >;
} & ("headers" extends keyof TParams
    ? // Declared headers: this intersects with their input, so that others may go beside them.
      { headers?: { readonly [name: string]: unknown } }
    : {
        /** Headers for this call (added to the client's). */
        headers?: HeadersInit;
      });

/** The sources a call must send (see {@link IsRequired}). */
export type RequiredSources<TParams> = {
  [K in keyof TParams & keyof ParamsDeclaration]: IsRequired<TParams[K], K> extends true ? K : never;
}[keyof TParams & keyof ParamsDeclaration];

/** A declared error as the client gives it back: discriminated by `name` (the declared one). */
export interface ClientError<TName extends string, TPayload> {
  /** The declared name (`UserNotFound`), not the words the envelope shows. */
  readonly name: TName;
  /** The status code. */
  readonly code: number;
  /** The message, or `null`. */
  readonly message: string | null;
  /**
   * The typed payload (`null` when the error has none). When the app writes its own error body
   * (`createApp({ errors: { body } })`), the body as sent.
   */
  readonly payload: TPayload;
}

/** An answer no declaration covers (a 404 from another route, a 500, a proxy's 502…). */
export type UndeclaredError = ClientError<"HttpError", unknown>;

/** The endpoint's declared errors, as the client gives them back. */
export type DeclaredErrors<TErrors> = {
  [K in keyof TErrors & string]: ClientError<K, unknown extends TErrors[K] ? null : PayloadOf<TErrors[K]>>;
}[keyof TErrors & string];

/** The parameter errors of the declared sources (one shape: their names differ, their payload is the same). */
export type ParamErrors<TParams> = [TParams] extends [never]
  ? never
  : [keyof TParams & keyof ParamsDeclaration] extends [never]
    ? never
    : ClientError<ParamErrorName[keyof TParams & keyof ParamsDeclaration], ParamErrorPayload>;

/** The parameter error of each source. */
export type ParamErrorName = {
  path: "PathParamsError";
  query: "QueryParamsError";
  headers: "HeaderParamsError";
  cookies: "CookieParamsError";
  form: "FormBodyError";
  json: "JSONBodyError";
};

/** The errors the routes' middleware declares (`csrf()`, `bodyLimit()`, …): a list, or a union of lists. */
export type MiddlewareErrors<TUse> = TUse extends readonly unknown[]
  ? ErrorsOfMiddleware<TUse[number]>
  : never;

/** The errors one middleware declares (each member of a union of middleware on its own). */
export type ErrorsOfMiddleware<TMiddleware> = TMiddleware extends { readonly errors: infer TErrors }
  ? {
      [K in keyof TErrors & string]: ClientError<
        K,
        TErrors[K] extends ErrorClass<infer TEntries>
          ? TEntries extends undefined
            ? null
            : PayloadOf<TEntries>
          : unknown
      >;
    }[keyof TErrors & string]
  : never;

/** The data of a success: the declared view's JSON shape (`unknown` without a declared schema). */
export type DataOf<TViews> = [TViews] extends [never]
  ? unknown
  : DeclaredView<TViews> extends View<unknown, infer TJson>
    ? TJson
    : unknown;

/** What a client call resolves to: never a rejection for an HTTP error answer. */
export type ClientResult<TData, TError> =
  | { readonly ok: true; readonly status: number; readonly data: TData }
  | { readonly ok: false; readonly status: number; readonly error: TError };

/**
 * The former name of {@link ClientResult} (the endpoint's `CallResult` is what `call` returns: one name,
 * one meaning).
 *
 * @deprecated Use `ClientResult`; this name goes in 0.4.
 */
export type CallResult<TData, TError> = ClientResult<TData, TError>;

/** One client method, from a route's endpoint. */
export type ClientMethod<THandler, TUse> =
  THandler extends Endpoint<infer TParams, infer TErrors, infer TViews>
    ? [TParams] extends [never]
      ? (input?: {
          headers?: HeadersInit;
        }) => Promise<ClientResult<DataOf<TViews>, ErrorsOf<Record<never, never>, TErrors, TUse>>>
      : Record<never, never> extends CallInput<TParams>
        ? (
            input?: CallInput<TParams>,
          ) => Promise<ClientResult<DataOf<TViews>, ErrorsOf<TParams, TErrors, TUse>>>
        : (
            input: CallInput<TParams>,
          ) => Promise<ClientResult<DataOf<TViews>, ErrorsOf<TParams, TErrors, TUse>>>
    : (input?: { headers?: HeadersInit }) => Promise<ClientResult<unknown, UndeclaredError>>;

/** The 413 of the app's body limits, on a route that reads a body. */
export type BodyErrors<TParams> = [keyof TParams & ("form" | "json")] extends [never]
  ? never
  : ClientError<"PayloadTooLarge", null>;

/** Every error a call may give back: declared, parameter, body limit, middleware, and undeclared. */
export type ErrorsOf<TParams, TErrors, TUse> =
  | DeclaredErrors<TErrors>
  | ParamErrors<TParams>
  | BodyErrors<TParams>
  | MiddlewareErrors<TUse>
  | UndeclaredError;

/**
 * The client of a routes object: one method per named route (a flat mapped type, one step per route);
 * a channel routed as `["WS", path, Channel]` gives `connect`.
 * `TAround` is the middleware the app wraps the routes in beyond the routes object's own (`app.use`, a
 * namespace's `use`): their declared errors join every method's union.
 */
export type Client<TRoutes, TAround extends readonly unknown[] = readonly []> = TRoutes extends {
  readonly entries: infer TEntries extends Record<string, RouteEntry>;
  readonly middleware: infer TUse;
}
  ? 4 extends TEntries[keyof TEntries]["length"]
    ? {
        readonly [K in keyof TEntries]: TEntries[K][0] extends "WS"
          ? ChannelMethod<TEntries[K][2]>
          : ClientMethod<TEntries[K][2], TUse | TAround | EntryUse<TEntries[K]>>;
      }
    : // No route has middleware of its own: EntryUse left out (its conditional costs ~25 instantiations a route).
      {
        readonly [K in keyof TEntries]: TEntries[K][0] extends "WS"
          ? ChannelMethod<TEntries[K][2]>
          : ClientMethod<TEntries[K][2], TUse | TAround>;
      }
  : never;

/** The middleware of a route entry's own (`[method, path, handler, { use }]`), or `never`. */
export type EntryUse<TEntry> = TEntry extends readonly [
  unknown,
  unknown,
  unknown,
  { readonly use: infer TUse },
]
  ? TUse
  : never;

/** What `connect` takes: the channel's path and query values, and headers where the WebSocket allows them. */
export type ConnectInput<TParams> = {
  -readonly [K in keyof TParams & ("path" | "query")]?: SourceInput<TParams[K]>;
} & {
  /**
   * Headers of the upgrade request (declared `headers` params and others): sent by a `WebSocket`
   * constructor that takes them (`ws` on Node); a browser's cannot.
   */
  headers?: Record<string, string>;
  /**
   * A bearer token sent as a browser can send one: as the subprotocols `bearer` and `bearer.<token>`,
   * which `jwt({ websocketToken: "protocol" })` and `bearerAuth({ websocketToken: "protocol" })` read.
   */
  bearer?: string;
};

/** Why a channel closed, when a declaration says: a declared error, a parameter error, a refused message. */
export type ChannelCloseError<TErrors> =
  | { [K in keyof TErrors & string]: { readonly name: K; readonly message: null } }[keyof TErrors & string]
  | { readonly name: "ParamsError" | "InvalidMessage"; readonly message: string };

/** A channel's close, as the client gives it. */
export interface ChannelClose<TErrors> {
  /** The close code (1000, 1001, 1006 when the connection dropped, 1007, 1008, 1009, 1011, 4000, or a declared one). */
  readonly code: number;
  /** The close reason. */
  readonly reason: string;
  /** The declared error (by name), parameter error or refused message the close stands for. */
  readonly error: ChannelCloseError<TErrors> | undefined;
}

/** An open (or opening) channel connection. */
export interface ChannelConnection<TSend, TReceive, TErrors> {
  /** Settles once the socket is open; rejects with the close when it closes first. */
  readonly opened: Promise<void>;
  /** Settles once the socket is closed. */
  readonly closed: Promise<ChannelClose<TErrors>>;
  /** Sends a message (as JSON when the channel declares its messages). */
  send(message: TSend): void;
  /** Calls `listener` with each message (parsed when the channel declares its messages); returns a remover. */
  onMessage(listener: (message: TReceive) => void): () => void;
  /** Closes the connection (default 1000). */
  close(code?: number, reason?: string): void;
}

/** Raw websocket data, sent when a channel declares no `in` messages. */
export type Raw = string | ArrayBuffer | Uint8Array;

/** The client side of a channel: `connect` and its typed connection. */
export type ChannelMethod<THandler> =
  THandler extends Channel<infer TParams extends ParamsDeclaration, infer TErrors, infer TMessages>
    ? {
        connect(
          input?: ConnectInput<TParams>,
        ): ChannelConnection<
          TMessages extends { readonly in: infer TIn } ? InputOf<TIn> : Raw,
          TMessages extends { readonly out: infer TOut } ? InputOf<TOut> : string | ArrayBuffer,
          TErrors
        >;
      }
    : never;
