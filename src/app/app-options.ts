// What `createApp` takes: the options and their checks.
import type { Limits } from "../context/limits.ts";
import type { RequestIdOptions } from "../context/request-id.ts";
import type { AddressLookup } from "../context/request-info.ts";
import type { ErrorBody } from "../errors/error-body.ts";
import type { ErrorFormat, ErrorRendering } from "../errors/render-error.ts";
import { addressMatcher, clientAddress, type ProxyHeader } from "../http/ip.ts";
import { type HistoryOptions, type PubSubDriver, TopicHub } from "../pubsub/hub.ts";
import type { PresenceOptions } from "../pubsub/presence.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { consoleLogger, type Logger } from "./app-state.ts";

/** Options of {@link createApp}. Every one has a safe default. */
export interface AppOptions {
  /** Show the message and stack of unexpected errors in 500 responses (development only). Default `false`. */
  readonly verbose?: boolean;
  /** How error responses are rendered. */
  readonly errors?: ErrorRenderingOptions;
  /** Request id handling. Default: a new UUID v4 per request, sent back as `X-Request-Id`. */
  readonly requestId?: RequestIdOptions;
  /** Overrides of the safe limits (body size, nesting, counts…). */
  readonly limits?: Partial<Limits>;
  /** Where failures are reported. Default: `console`. */
  readonly logger?: Logger;
  /**
   * The proxies in front of the app, whose `X-Forwarded-For` (or `Forwarded`) header `ctx.request.ip`
   * follows: addresses or ranges (`["127.0.0.1", "10.0.0.0/8", "::1"]`). Default: none, so the header is
   * ignored (any client can write it).
   */
  readonly trustProxy?: TrustProxyOptions;
  /**
   * A backplane for topics between instances (`redisPubSub()`, `natsPubSub()`); without it, topics
   * reach the sockets of this instance only.
   */
  readonly pubsub?: PubSubDriver | undefined;
  /**
   * Topics that keep a bounded history (in the broker with a backplane, else in memory): their messages
   * are numbered, delivered in the same order on every instance, and a subscriber that returns with the
   * position of the last one it received (`socket.subscribe(topic, { since })`) gets what it missed,
   * or is told there is a gap. Other topics stay at most once.
   */
  readonly history?: HistoryOptions | undefined;
  /** How topics' presence (`socket.subscribe(topic, { presence })`) is kept across instances. */
  readonly presence?: PresenceOptions | undefined;
  /**
   * What the runtime that calls `app.fetch` can do (peer address, websocket upgrades). `createApp`
   * sets the one it runs on (Bun, Deno, workerd), and server adapters (`portico/node`) pass their own;
   * set it only for a host Portico does not know.
   */
  readonly runtime?: Runtime;
}

/** Options of `trustProxy` in {@link AppOptions}. */
export interface TrustProxyOptions {
  /** The proxies' addresses or CIDR ranges. */
  readonly addresses: readonly string[];
  /** The header they write. Default `x-forwarded-for`. */
  readonly header?: "x-forwarded-for" | "forwarded";
}

/** How an app with these `trustProxy` options finds a request's client address. */
export function addressLookup(options: TrustProxyOptions | undefined): AddressLookup {
  if (options === undefined) {
    return (request, peer) => clientAddress(peer, request, undefined, "x-forwarded-for");
  }
  const trusted = addressMatcher(options.addresses);
  const header: ProxyHeader = options.header ?? "x-forwarded-for";
  if (header !== "x-forwarded-for" && header !== "forwarded") {
    throw new TypeError(`trustProxy.header must be "x-forwarded-for" or "forwarded", got ${String(header)}`);
  }
  return (request, peer) => clientAddress(peer, request, trusted, header);
}

/** The topics of an app with these options: its backplane, histories and presence. */
export function topicHub(options: AppOptions): TopicHub {
  const logger = options.logger ?? consoleLogger;
  return new TopicHub(
    options.pubsub,
    {
      error: (message, error) => logger.error(message, error),
      info: (message) => (logger.info ?? logger.warn)?.call(logger, message),
    },
    options.history,
    options.presence,
  );
}

/** How an app renders its error responses (`createApp({ errors })`). */
export interface ErrorRenderingOptions {
  /**
   * What an error is sent as when the client's `Accept` names none of `text/plain`, `application/json`
   * and `text/html` (or is absent, or accepts any type), or ranks them equal: `"text"` (the default, readable
   * in a terminal) or `"json"` (the envelope `{ error: { name, message, code, payload } }`, what
   * generated API clients expect). A client that asks for one format gets it either way.
   */
  readonly format?: ErrorFormat;
  /**
   * The app's own JSON error body instead of Portico's envelope (`defineErrorBody({ schema, render })`):
   * what an API spec prescribes. The OpenAPI document shows its schema; each error response also
   * carries `Portico-Error: <declared name>`, which the typed client reads.
   */
  readonly body?: ErrorBody;
  /** The status of parameter errors (default 400; 422 where an API spec says so). */
  readonly paramsStatus?: number;
}

/** How an app with these options renders its errors, checked. */
export function errorRenderingOf(options: ErrorRenderingOptions | undefined): ErrorRendering {
  const format = options?.format ?? "text";
  if (format !== "text" && format !== "json")
    throw new TypeError(`createApp: errors.format must be "text" or "json", got ${JSON.stringify(format)}`);
  const paramsStatus = options?.paramsStatus ?? 400;
  if (!Number.isInteger(paramsStatus) || paramsStatus < 400 || paramsStatus > 499)
    throw new TypeError(`createApp: errors.paramsStatus must be a 4xx status, got ${String(paramsStatus)}`);
  const body = options?.body;
  if (body !== undefined && typeof body.render !== "function")
    throw new TypeError("createApp: errors.body must be made by defineErrorBody({ schema, render })");
  return Object.freeze({ format, body, paramsStatus });
}
