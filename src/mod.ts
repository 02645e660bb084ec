/**
 * Portico: a TypeScript HTTP framework on the Fetch API.
 *
 * @example
 * import { createApp } from "portico";
 * const app = createApp();
 * app.get("/", (ctx) => { ctx.response.write("Hello"); });
 * export default app;
 *
 * @module portico
 */

export type { AppOptions, ErrorRenderingOptions, TrustProxyOptions } from "./app/app-options.ts";
export type { ErrorHandler, Logger, NotFoundHandler } from "./app/app-state.ts";
export { App } from "./app/create-app.ts";
export type { RouteInfo } from "./app/route-info.ts";
export {
  type Context,
  type CreateContextOptions,
  createContext,
  type ExecutionContext,
  type MatchedRoute,
  type PartsTransform,
  type Register,
  type RegisteredEnv,
  type RegisteredSession,
  type RegisteredState,
  type ResponseTransform,
} from "./context/context.ts";
export { currentContext } from "./context/current.ts";
export type {
  BlockHandler,
  Connectable,
  Handler,
  HandlerResult,
  Middleware,
  Runnable,
  SocketHandler,
  WsHandler,
} from "./context/handler.ts";
export { defaultLimits, type Limits } from "./context/limits.ts";
export type { RequestIdOptions } from "./context/request-id.ts";
export type { RequestInfo } from "./context/request-info.ts";
export type { PartsTransformOf, ResponseBody, ResponseState, TransformOf } from "./context/response-state.ts";
export type {
  DeclaringMiddleware,
  HeaderDoc,
  MiddlewareDeclaration,
  ResponseDoc,
  RouteDoc,
  SecurityDeclaration,
  SecurityScheme,
} from "./context/route-doc.ts";
export type { Session } from "./context/session.ts";
export type {
  PublishOptions,
  Recovery,
  Socket,
  SocketMessage,
  SocketReadyState,
  SubscribeOptions,
  Topic,
} from "./context/socket.ts";
export { createApp } from "./create-app.ts";
export {
  type CallResult,
  type DeclaredView,
  defineEndpoint,
  type Endpoint,
  type EndpointCallback,
  type EndpointDefinition,
  type EndpointResult,
  type ViewCallResult,
  type ViewDeclaration,
  type ViewOutcome,
} from "./endpoint/define-endpoint.ts";
export type { EndpointHelpers, EndpointInstance, RedirectOptions } from "./endpoint/endpoint-instance.ts";
export {
  defineError,
  type ErrorClass,
  type ErrorClasses,
  type ErrorDeclaration,
  type ErrorDeclarations,
  type ErrorOptions,
  type PayloadEntries,
  type PayloadOf,
} from "./errors/define-error.ts";
export { defineErrorBody, type ErrorBody, type ErrorDetails } from "./errors/error-body.ts";
export { HttpError, isHttpError } from "./errors/http-error.ts";
export {
  CookieParamsError,
  FormBodyError,
  HeaderParamsError,
  JSONBodyError,
  type ParamErrorPayload,
  type ParamIssue,
  type ParamSource,
  ParamsError,
  PathParamsError,
  QueryParamsError,
} from "./errors/param-errors.ts";
export type { ErrorFormat, ErrorRendering } from "./errors/render-error.ts";
export { HtmlString, html, raw, unescaped } from "./http/html.ts";
export { isLocalPath } from "./http/location.ts";
export type { ResponseParts } from "./http/response-parts.ts";
export type { InferParams, ParamsDeclaration, SourceParam } from "./params/parse-params.ts";
export { UploadedFile } from "./params/part-head.ts";
export { type ReadBodyOptions, readBody } from "./params/read-body.ts";
export { type BodyOptions, type BodySpec, type StreamedFile, t } from "./params/t.ts";
export type { ControlTarget } from "./pubsub/control.ts";
export type {
  DriverHistoryRead,
  OutboxLimits,
  PubSubDriver,
  PubSubStats,
  TopicHealth,
} from "./pubsub/driver.ts";
export type { HistoryLimits, HistoryOptions } from "./pubsub/history.ts";
export type {
  PresenceEvent,
  PresenceMember,
  PresenceOptions,
  PresenceState,
} from "./pubsub/presence.ts";
export {
  createRouter,
  type Method,
  type NamespaceOptions,
  type RouteOptions,
  Router,
} from "./router/create-router.ts";
export { defineRoutes, type RouteEntry, type Routes, type RoutesOptions } from "./router/define-routes.ts";
export {
  type CustomMethod,
  customMethod,
  type RegisteredMethod,
  type StandardMethod,
} from "./router/methods.ts";
export type { NamespaceCallback, ScopeErrorHandler, ScopeNotFoundHandler } from "./router/scope.ts";
export type { FileAccess, FileInfo } from "./runtime/files.ts";
export type {
  AsyncStorage,
  Broadcast,
  Coding,
  Compressor,
  NativeTopics,
  OpenSocket,
  Runtime,
  SocketSink,
  SocketTransport,
  TopicMessage,
  UpgradeOptions,
  UpgradeShim,
} from "./runtime/runtime.ts";
export type {
  AnySchema,
  Entries,
  InferDeclaration,
  InferEntries,
  MayBeOmitted,
  OmittedKeys,
  SourceDeclaration,
} from "./schema/entries.ts";
export type { FileOptions } from "./schema/mark.ts";
export type {
  StandardInput,
  StandardIssue,
  StandardJsonSchema,
  StandardOutput,
  StandardProps,
  StandardResult,
  StandardSchemaV1,
  StandardTypes,
} from "./schema/standard.ts";
export {
  defineView,
  isView,
  type SchemaViewRenderers,
  type View,
  type ViewConstructor,
  type ViewRenderers,
} from "./view/define-view.ts";
export type { BunWebSocket, BunWebSocketHandlers } from "./ws/bun-handlers.ts";
export type {
  ChannelMessages,
  InMessage,
  InvalidMessage,
  OutMessage,
  TopicMessageOf,
} from "./ws/channel-messages.ts";
export {
  type Channel,
  type ChannelDefinition,
  type ChannelHelpers,
  type ChannelInstance,
  defineChannel,
} from "./ws/define-channel.ts";
