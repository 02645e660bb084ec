// The trace a request belongs to, as a tracer (`portico/otel`) attached it beside the context: what
// `logger()` writes beside each entry, so that logs and traces correlate, with neither entry importing
// the other.

/** A request's trace and its server span, in W3C hex (32 and 16 characters). */
export interface TraceIds {
  readonly traceId: string;
  readonly spanId: string;
}

const traces = new WeakMap<object, TraceIds>();

/** Attaches the trace of a request's span to its context (`otel()` does, for a span that records). */
export function attachTraceIds(ctx: object, ids: TraceIds): void {
  traces.set(ctx, ids);
}

/** A context's trace, or `undefined` when no tracer records one for it. */
export function traceIdsOf(ctx: object): TraceIds | undefined {
  return traces.get(ctx);
}
