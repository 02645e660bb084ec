// What `createApp` takes: the options and their checks.
import type { Limits } from "../context/limits.ts";
import type { RequestIdOptions } from "../context/request-id.ts";
import type { ClientLookup } from "../context/request-info.ts";
import type { ErrorRenderingOptions } from "../errors/rendering.ts";

export type { ErrorRenderingOptions } from "../errors/rendering.ts";

import {
  addressMatcher,
  canonicalAddress,
  clientAddress,
  forwardedOrigin,
  type ProxyHeader,
} from "../http/ip.ts";
import { isHost } from "../http/request-target.ts";
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
   * ignored (any client can write it). `ctx.request.url` then also takes the scheme and Host the client
   * used from `X-Forwarded-Proto`/`X-Forwarded-Host` (or `Forwarded`'s `proto=`/`host=`), only when
   * the request comes from one of these proxies: redirects, `secure: "auto"` cookies, `csrf()`'s origin
   * check and `serveDocument()`'s server URL follow it.
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
   * Keep each request's context where `currentContext()` finds it, from code that was not given `ctx`
   * (through the runtime's `AsyncLocalStorage`: Node, Bun, Deno, Workers with `nodejs_compat`; elsewhere
   * `createApp` throws). Default `false`: it costs every request.
   */
  readonly asyncContext?: boolean;
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

/** How an app with these `trustProxy` options finds a request's client address and public origin. */
export function addressLookup(options: TrustProxyOptions | undefined): ClientLookup {
  if (options === undefined) {
    return { address: (request, peer) => clientAddress(peer, request, undefined, "x-forwarded-for") };
  }
  const trusted = addressMatcher(options.addresses);
  const header: ProxyHeader = options.header ?? "x-forwarded-for";
  if (header !== "x-forwarded-for" && header !== "forwarded") {
    throw new TypeError(`trustProxy.header must be "x-forwarded-for" or "forwarded", got ${String(header)}`);
  }
  return {
    address: (request, peer) => clientAddress(peer, request, trusted, header),
    origin: (request, peer) => forwardedOrigin(peer, request, trusted, header, isHost),
    trusts: (peer) => trusted(canonicalAddress(peer) ?? peer),
  };
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
