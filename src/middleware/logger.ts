import type { Middleware } from "../context/handler.ts";
import { traceIdsOf } from "../context/trace-ids.ts";

/** One request, as {@link logger} reports it. */
export interface LogEntry {
  /** When the request arrived (ISO 8601). */
  readonly time: string;
  /** The request id (`X-Request-Id`). */
  readonly id: string;
  /** The request method. */
  readonly method: string;
  /** The path, without the query string (which may carry secrets). */
  readonly path: string;
  /** The status sent (after every response transform: a 304 from `etag()`, say). */
  readonly status: number;
  /** Milliseconds until the response was handed to the runtime (a streamed body may go on after). */
  readonly durationMs: number;
  /** The client's address, when known. */
  readonly ip?: string;
  /** The name of the error that was rescued, if any. */
  readonly error?: string;
  /** The request's trace, when a tracer records one (`otel()` of `portico/otel`). */
  readonly trace_id?: string;
  /** The request's server span in that trace. */
  readonly span_id?: string;
}

/** Options of {@link logger}. */
export interface LoggerOptions {
  /** Where each entry goes. Default: one JSON line on the console. */
  readonly sink?: (entry: LogEntry) => void;
}

const jsonLine = (entry: LogEntry): void => console.log(JSON.stringify(entry));

/**
 * One structured entry per request: time, id, method, path, status, duration, client address and
 * the rescued error's name; `trace_id` and `span_id` when `otel()` (`portico/otel`) traces the request,
 * in either order. Put it first (`app.use(logger())`) to time everything after it.
 *
 * @example
 * app.use(logger({ sink: (entry) => myLogger.info(entry) }));
 */
export function logger(options: LoggerOptions = {}): Middleware<unknown> {
  const sink = options.sink ?? jsonLine;
  return async (ctx, next) => {
    const time = Date.now();
    const start = performance.now();
    try {
      await next();
    } finally {
      const request = ctx.request;
      const error = ctx.error;
      // Read now, while the request is open; written once the response is final (transforms run after
      // the middleware: `etag()` turns a 200 into a 304).
      const ip = request.ip;
      const trace = traceIdsOf(ctx);
      ctx.whenHandedOver((response) => {
        const entry: { -readonly [K in keyof LogEntry]: LogEntry[K] } = {
          time: isoTime(time),
          id: request.id,
          method: request.method,
          path: request.path,
          status: response.status,
          durationMs: Math.round((performance.now() - start) * 1000) / 1000,
        };
        if (ip !== undefined) entry.ip = ip;
        if (error !== undefined) entry.error = error instanceof Error ? error.name : typeof error;
        if (trace !== undefined) {
          entry.trace_id = trace.traceId;
          entry.span_id = trace.spanId;
        }
        sink(entry);
      });
    }
  };
}

// The ISO form of a time in milliseconds, made once per millisecond: requests that arrive within the
// same one share it (\`toISOString\` was a tenth of a request's CPU behind logger(), cors() and
// secureHeaders() on Node).
let lastTime = Number.NaN;
let lastIso = "";

function isoTime(time: number): string {
  if (time !== lastTime) {
    lastTime = time;
    lastIso = new Date(time).toISOString();
  }
  return lastIso;
}
