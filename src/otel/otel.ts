/**
 * OpenTelemetry for a Portico app: `app.use(otel())` gives every request one server span, named and
 * attributed by the stable HTTP semantic conventions from what the app declared (the route's pattern,
 * the declared error's name), and the `http.server.request.duration` and `http.server.active_requests`
 * metrics. It continues the caller's W3C trace context. It needs
 * [`@opentelemetry/api`](https://www.npmjs.com/package/@opentelemetry/api) (an optional peer
 * dependency: install it with this entry); the SDK, its exporters and its registration are the app's.
 * Without providers given, the globally registered ones are used (none registered: the API's no-op,
 * and the middleware records nothing).
 *
 * @example
 * import { otel } from "portico/otel";
 * app.use(otel()); // first, so that its span covers every other middleware
 *
 * @module portico/otel
 */
import type { Histogram, MeterProvider, Span, TracerProvider, UpDownCounter } from "@opentelemetry/api";
import type { Context } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import { attachTraceIds } from "../context/trace-ids.ts";
import { isHttpError } from "../errors/http-error.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import { optionalPeer } from "../runtime/optional-peer.ts";
import {
  type Attributes,
  errorType,
  methodOf,
  type QueryRecording,
  requestAttributes,
  spanName,
} from "./attributes.ts";
import { endWithBody } from "./body-end.ts";

export type { QueryRecording } from "./attributes.ts";

const api = await optionalPeer("@opentelemetry/api", "portico/otel", () => import("@opentelemetry/api"));
const { SpanKind, SpanStatusCode, ROOT_CONTEXT } = api;

/** Options of {@link otel}. */
export interface OtelOptions {
  /** Where spans go. Default: the globally registered provider (`trace.setGlobalTracerProvider`). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the globally registered provider (`metrics.setGlobalMeterProvider`). */
  readonly meterProvider?: MeterProvider;
  /**
   * Whether the caller's trace context (`traceparent`, `tracestate`, `baggage`, through the globally
   * registered propagator) is continued: `true` (default, as OpenTelemetry's HTTP instrumentations do),
   * `false` (every request starts a trace), or `"trusted"`: only from a peer the app's `trustProxy`
   * trusts (`ctx.request.fromTrustedProxy`), so that clients on the internet cannot join or steer traces.
   */
  readonly propagate?: boolean | "trusted";
  /**
   * How `url.query` is recorded: `"redacted"` (default: the parameters' names, each value `REDACTED`,
   * since a query may carry a token or a signature), `"full"`, or `false`.
   */
  readonly query?: QueryRecording;
}

const spans = new WeakMap<Context<unknown>, Span>();

/** The server span {@link otel} made for a request, if any (to add attributes or events to it). */
export function spanOf(ctx: Context<unknown>): Span | undefined {
  return spans.get(ctx);
}

// Carriers: a request's headers, read by name only (the W3C propagators ask for their fields).
const getter = {
  keys: (ctx: Context<unknown>): string[] => [...ctx.request.raw.headers.keys()],
  get: (ctx: Context<unknown>, key: string): string | undefined => ctx.request.header(key) ?? undefined,
};

// The conventions' advised buckets for `http.server.request.duration`, in seconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Traces and measures every request it wraps. Put it first (`app.use(otel())`): its span then covers
 * the other middleware, and ends when the response is handed to the runtime — for a streamed body
 * (SSE, a file) when its last chunk is read for sending, or when the client leaves.
 */
export function otel(options: OtelOptions = {}): Middleware<unknown> {
  const propagate = options.propagate ?? true;
  if (propagate !== true && propagate !== false && propagate !== "trusted") {
    throw new TypeError(`otel: propagate must be true, false or "trusted", got ${String(propagate)}`);
  }
  const query = options.query ?? "redacted";
  if (query !== "redacted" && query !== "full" && query !== false) {
    throw new TypeError(`otel: query must be "redacted", "full" or false, got ${String(query)}`);
  }
  const tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer("portico");
  const instruments = instrumentsOf(options.meterProvider);
  const given = options.tracerProvider;

  const traced = async (ctx: Context<unknown>, next: () => Promise<void>): Promise<void> => {
    const start = performance.now();
    const request = ctx.request;
    const continued = propagate === true || (propagate === "trusted" && request.fromTrustedProxy);
    const parent = continued
      ? api.propagation.extract(api.context.active(), ctx, getter)
      : api.context.active() === ROOT_CONTEXT
        ? ROOT_CONTEXT
        : api.trace.deleteSpan(api.context.active());
    // What samplers see is cheap to read; the rest only when the span records.
    const method = methodOf(request.method);
    const sampled: Attributes = { "http.request.method": method, "url.path": request.path };
    const route = ctx.route?.path;
    if (route !== undefined) sampled["http.route"] = route;
    const span = tracer.startSpan(spanName(ctx), { kind: SpanKind.SERVER, attributes: sampled }, parent);
    const active = api.trace.setSpan(parent, span);
    const recording = span.isRecording();
    const measured = instruments();
    // Neither traced nor measured (no SDK, or this span sampled out without metrics): the span's context
    // still reaches the app (what it calls continues the trace), and nothing else is done.
    if (!recording && measured === undefined) {
      span.end();
      return api.context.with(active, next);
    }
    if (recording) {
      span.setAttributes(requestAttributes(ctx, query));
      spans.set(ctx, span);
      const { traceId, spanId } = span.spanContext();
      attachTraceIds(ctx, { traceId, spanId });
    }
    const counted: Attributes = { "http.request.method": method, "url.scheme": schemeOf(ctx) };
    measured?.active.add(1, counted);

    const end = (parts: ResponseParts): void => {
      const status = parts.status;
      const type = errorType(ctx.error, status);
      if (measured !== undefined) {
        const metric: Attributes = { ...counted, "http.response.status_code": status };
        if (route !== undefined) metric["http.route"] = route;
        if (type !== undefined) metric["error.type"] = type;
        measured.duration.record((performance.now() - start) / 1000, metric);
        measured.active.add(-1, counted);
      }
      if (recording) {
        span.setAttribute("http.response.status_code", status);
        if (type !== undefined) span.setAttribute("error.type", type);
        const error = ctx.error;
        // An unexpected error is recorded as an exception (for the tracing backend only); a declared
        // one is what the app meant to answer.
        if (error instanceof Error && !isHttpError(error)) span.recordException(error);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    };

    try {
      await api.context.with(active, next);
    } finally {
      endWithBody(ctx, end);
    }
  };
  // Nothing registered (no tracer, no meter, no propagator: the API alone): the app runs as without it.
  return (ctx, next) =>
    untraced(given) && instruments() === undefined && api.propagation.fields().length === 0
      ? next()
      : traced(ctx, next);
}

// The class of the API's no-op tracer provider: what a `ProxyTracerProvider` delegates to until an SDK
// registers one.
const NoopTracerProvider = new api.ProxyTracerProvider().getDelegate().constructor;

/** Whether spans would go nowhere: the tracer provider (given, else the global one) is the API's no-op. */
function untraced(given: TracerProvider | undefined): boolean {
  const provider = given ?? api.trace.getTracerProvider();
  const used = provider instanceof api.ProxyTracerProvider ? provider.getDelegate() : provider;
  return used instanceof NoopTracerProvider;
}

interface Instruments {
  readonly duration: Histogram;
  readonly active: UpDownCounter;
}

// The API's no-op instruments' class: a meter provider that gives them measures nothing.
const NoopHistogram = api.createNoopMeter().createHistogram("portico.noop").constructor;

/**
 * The request metrics' instruments, made from the provider given or the global one, whichever it is at
 * the time (an app may register its SDK after making the middleware); `undefined` while the provider is
 * the API's no-op.
 */
function instrumentsOf(given: MeterProvider | undefined): () => Instruments | undefined {
  let provider: MeterProvider | undefined;
  let made: Instruments | undefined;
  return () => {
    const current = given ?? api.metrics.getMeterProvider();
    if (current !== provider) {
      provider = current;
      const meter = current.getMeter("portico");
      const duration = meter.createHistogram("http.server.request.duration", {
        unit: "s",
        description: "Duration of HTTP server requests.",
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
      const active = meter.createUpDownCounter("http.server.active_requests", {
        unit: "{request}",
        description: "Number of active HTTP server requests.",
      });
      made = duration instanceof NoopHistogram ? undefined : { duration, active };
    }
    return made;
  };
}

function schemeOf(ctx: Context<unknown>): string {
  const url = ctx.request.url;
  return url.slice(0, url.indexOf(":"));
}
