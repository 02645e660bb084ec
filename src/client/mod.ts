/**
 * A typed client for a routes object made by `defineRoutes`: one method per named route, typed inputs,
 * typed data and a typed error union. Web-standard `fetch` only; works in browsers and in-process.
 *
 * @example
 * import { createClient } from "portico/client";
 * const client = createClient<typeof api>({ baseUrl: "https://api.example", routes: api });
 *
 * @module portico/client
 */

export type { InputEntries, InputOf, LeftOutKeys, MayLeaveOut, OptionalSchema } from "../schema/entries.ts";
export { type ClientOptions, createClient, type RoutesShape } from "./client.ts";
export type { WebSocketConstructor } from "./socket.ts";
export type {
  BodyErrors,
  CallInput,
  CallResult,
  ChannelClose,
  ChannelCloseError,
  ChannelConnection,
  ChannelMethod,
  Client,
  ClientError,
  ClientMethod,
  ClientResult,
  ConnectInput,
  DataOf,
  DeclaredErrors,
  EntryUse,
  ErrorsOf,
  ErrorsOfMiddleware,
  IsRequired,
  MiddlewareErrors,
  ParamErrorName,
  ParamErrors,
  Raw,
  RequiredSources,
  SourceInput,
  UndeclaredError,
} from "./types.ts";
