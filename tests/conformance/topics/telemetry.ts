import assert from "node:assert/strict";
import { propagation, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { defineEndpoint, defineError, t } from "../../../src/mod.ts";
import { otel } from "../../../src/otel/otel.ts";
import type { Topic } from "../suite.ts";

// The app's telemetry, as an app sets it up: the SDK's provider (here exporting to memory, read back by
// the cases through /otel-spans), the W3C propagator registered globally.
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

const Missing = defineError("OrderMissing", 404);
const GetOrder = defineEndpoint({
  params: { path: { id: t.int32() } },
  errors: { Missing },
  call(ep) {
    if (ep.params.path.id === 0) throw new ep.errors.Missing();
    return Response.json({ id: ep.params.path.id });
  },
});

// What a case reads of the span of one request, found by its id.
function reported(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    parent: span.parentSpanContext?.spanId ?? null,
    status: span.status.code,
    attributes: span.attributes,
    events: span.events.map((event) => event.name),
    ms: span.duration[0] * 1000 + span.duration[1] / 1e6,
  };
}

type Reported = ReturnType<typeof reported>;

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

/** portico/otel with the real SDK on every runtime: spans named by routes, context continued, streams timed. */
export const telemetry: Topic = {
  name: "OpenTelemetry",
  routes(app) {
    app.on("/otel", (r) => {
      r.use(otel({ tracerProvider }));
      r.get("/orders/:id", GetOrder);
      r.get("/fail", () => {
        throw new Error("kept on the server");
      });
      r.get("/stream", (ctx) => {
        let sent = 0;
        ctx.response.body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            if (sent++ === 2) controller.close();
            else controller.enqueue(new TextEncoder().encode(`part ${sent}\n`));
          },
        });
      });
    });
    app.get("/otel-spans/:id", (ctx) => {
      const id = ctx.request.pathParams.id;
      const span = exporter
        .getFinishedSpans()
        .find((candidate) => candidate.attributes["portico.request.id"] === id);
      return span === undefined ? new Response("none", { status: 404 }) : Response.json(reported(span));
    });
  },
  cases: [
    {
      name: "otel(): a span per request named by its route, the caller's trace continued, a declared error named",
      async run(c) {
        const spanOf = async (res: Response): Promise<Reported> => {
          await res.arrayBuffer();
          const report = await c.fetch(`/otel-spans/${res.headers.get("x-request-id")}`);
          assert.equal(report.status, 200, "the span ended with the response");
          return (await report.json()) as Reported;
        };
        const ok = await spanOf(
          await c.fetch("/otel/orders/7?key=secret", {
            headers: { traceparent: `00-${TRACE}-00f067aa0ba902b7-01` },
          }),
        );
        assert.equal(ok.name, "GET /otel/orders/:id");
        assert.equal(ok.kind, SpanKind.SERVER);
        assert.equal(ok.traceId, TRACE);
        assert.equal(ok.parent, "00f067aa0ba902b7");
        assert.equal(ok.attributes["http.route"], "/otel/orders/:id");
        assert.equal(ok.attributes["url.query"], "key=REDACTED");
        assert.equal(ok.attributes["http.response.status_code"], 200);
        assert.equal(typeof ok.attributes["server.port"], "number");
        const missing = await spanOf(await c.fetch("/otel/orders/0"));
        assert.equal(missing.attributes["error.type"], "OrderMissing");
        assert.equal(missing.status, SpanStatusCode.UNSET);
        const failed = await spanOf(await c.fetch("/otel/fail"));
        assert.equal(failed.status, SpanStatusCode.ERROR);
        assert.equal(failed.attributes["error.type"], "Error");
        assert.deepEqual(failed.events, ["exception"]);
      },
    },
    {
      name: "otel(): a streamed body's span ends with its last chunk",
      async run(c) {
        const res = await c.fetch("/otel/stream");
        assert.equal(await res.text(), "part 1\npart 2\n");
        const id = res.headers.get("x-request-id");
        // The span ends as the runtime reads the end of the body, which may follow the client's last byte.
        let report = await c.fetch(`/otel-spans/${id}`);
        for (let i = 0; i < 20 && report.status === 404; i++) {
          await report.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 10));
          report = await c.fetch(`/otel-spans/${id}`);
        }
        const span = (await report.json()) as Reported;
        assert.equal(span.name, "GET /otel/stream");
        assert.ok(span.ms >= 50, `covers the body's three 20 ms waits (${span.ms} ms)`);
      },
    },
  ],
};
