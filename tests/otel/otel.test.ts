// portico/otel against the real OpenTelemetry JS SDK (in-memory exporters): an app as a user writes it
// — middleware, a namespace, endpoints with declared errors, a streamed body — asserted span by span
// and by the metrics' points.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, test } from "node:test";
import {
  context,
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import * as v from "valibot";
import { serve } from "../../src/adapters/node.ts";
import { cors, type LogEntry, logger } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineError, defineView, t } from "../../src/mod.ts";
import { otel, spanOf } from "../../src/otel/otel.ts";

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});
const meterProvider = new MeterProvider({ readers: [reader] });
const contextManager = new AsyncLocalStorageContextManager();

before(() => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
});
after(async () => {
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  context.disable();
  propagation.disable();
  trace.disable();
});
beforeEach(() => spans.reset());

const Json = defineView({ json: (data: object) => data });
const logged: string[] = [];
const UserNotFound = defineError("UserNotFound", 404, { payload: { id: t.int32() } });

function app(options: Parameters<typeof otel>[0] = {}) {
  const server = createApp({
    trustProxy: { addresses: ["10.0.0.0/8"] },
    logger: { error: (message) => logged.push(message) },
  });
  server.use(otel({ tracerProvider, meterProvider, ...options }));
  server.use(cors({ origin: ["https://app.example"] }));
  const GetUser = defineEndpoint({
    params: { path: { id: t.int32() } },
    errors: { UserNotFound },
    async call(ep) {
      // A span the app makes is a child of the request's: the context is active in call.
      await trace.getTracer("app").startActiveSpan("load user", async (child) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        child.end();
      });
      if (ep.params.path.id === 0) throw new ep.errors.UserNotFound({ id: 0 });
      return Json({ id: ep.params.path.id });
    },
  });
  const CreateUser = defineEndpoint({
    params: { json: t.body({ name: v.string() }, { require: true }) },
    call: (ep) => Json({ name: ep.params.json.name }),
  });
  server.on("/api", (r) => {
    r.get("/users/:id", GetUser);
    r.post("/users", CreateUser);
    r.get("/boom", () => {
      throw new TypeError("database password is hunter2");
    });
    r.get("/stream", (ctx) => {
      let sent = 0;
      ctx.response.body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (sent++ === 3) controller.close();
          else controller.enqueue(new TextEncoder().encode(`chunk ${sent}\n`));
        },
      });
    });
    r.get("/span", (ctx) => {
      spanOf(ctx)?.setAttribute("app.tenant", "acme");
      ctx.response.write(ctx.route?.path ?? "none");
    });
  });
  return server;
}

function only(name: string): ReadableSpan {
  const found = spans.getFinishedSpans().filter((span) => span.name === name);
  assert.equal(found.length, 1, `one span named ${name}: ${spans.getFinishedSpans().map((s) => s.name)}`);
  return found[0]!;
}

describe("otel(): one server span per request", () => {
  test("named by the route's pattern, with the conventions' attributes and the request id", async () => {
    const res = await app().request("https://api.example.com:8443/api/users/42?token=secret&page=2", {
      headers: { "user-agent": "curl/8", origin: "https://app.example" },
    });
    assert.equal(res.status, 200);
    const span = only("GET /api/users/:id");
    assert.equal(span.kind, SpanKind.SERVER);
    assert.deepEqual(
      { ...span.attributes },
      {
        "http.request.method": "GET",
        "url.path": "/api/users/42",
        "url.scheme": "https",
        "url.query": "token=REDACTED&page=REDACTED",
        "http.route": "/api/users/:id",
        "server.address": "api.example.com",
        "server.port": 8443,
        "user_agent.original": "curl/8",
        "portico.request.id": res.headers.get("x-request-id"),
        "http.response.status_code": 200,
      },
    );
    assert.equal(span.status.code, SpanStatusCode.UNSET);
    // The app's own span, made in call, is the request span's child.
    const child = only("load user");
    assert.equal(child.parentSpanContext?.spanId, span.spanContext().spanId);
    assert.equal(child.spanContext().traceId, span.spanContext().traceId);
  });

  test("a declared error names error.type by its key; a 4xx is not an error on a server span", async () => {
    const res = await app().request("/api/users/0");
    assert.equal(res.status, 404);
    const span = only("GET /api/users/:id");
    assert.equal(span.attributes["error.type"], "UserNotFound");
    assert.equal(span.attributes["http.response.status_code"], 404);
    assert.equal(span.status.code, SpanStatusCode.UNSET);
    assert.equal(span.events.length, 0);
  });

  test("a parameter error is a 400 named as the typed client names it, not in the body's words", async () => {
    const res = await app().request("/api/users/abc", { headers: { accept: "application/json" } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.name, "Path Params Error");
    assert.equal(only("GET /api/users/:id").attributes["error.type"], "PathParamsError");
  });

  test("an unexpected error is a 500: status ERROR, the exception recorded, nothing of it sent", async () => {
    const res = await app().request("/api/boom");
    assert.equal(res.status, 500);
    assert.doesNotMatch(await res.text(), /hunter2/);
    assert.ok(
      logged.some((line) => line.includes(res.headers.get("x-request-id")!)),
      "logged with its id",
    );
    const span = only("GET /api/boom");
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.attributes["error.type"], "TypeError");
    assert.equal(span.events[0]?.name, "exception");
    assert.equal(span.events[0]?.attributes?.["exception.type"], "TypeError");
  });

  test("server.address and server.port from the Host, an IPv6 literal without its brackets", async () => {
    await app().request("http://[::1]:8080/api/span");
    const span = only("GET /api/span");
    assert.equal(span.attributes["server.address"], "::1");
    assert.equal(span.attributes["server.port"], 8080);
    spans.reset();
    await app().request("https://example.com/api/span");
    assert.equal(only("GET /api/span").attributes["server.port"], 443);
  });

  test("no route matched: the span is named by the method alone, without http.route", async () => {
    const res = await app().request("/nowhere");
    assert.equal(res.status, 404);
    const span = only("GET");
    assert.equal(span.attributes["http.route"], undefined);
    assert.equal(span.attributes["url.path"], "/nowhere");
  });

  test("a method the conventions do not name is _OTHER, its spelling kept apart", async () => {
    await app().request("/api/users/1", { method: "PROPFIND" });
    const span = only("HTTP");
    assert.equal(span.attributes["http.request.method"], "_OTHER");
    assert.equal(span.attributes["http.request.method_original"], "PROPFIND");
  });

  test("the caller's traceparent is continued by default, not with propagate: false", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    await app().request("/api/users/1", { headers: { traceparent } });
    const continued = only("GET /api/users/:id");
    assert.equal(continued.spanContext().traceId, traceId);
    assert.equal(continued.parentSpanContext?.spanId, "00f067aa0ba902b7");
    spans.reset();
    await app({ propagate: false }).request("/api/users/1", { headers: { traceparent } });
    const fresh = only("GET /api/users/:id");
    assert.notEqual(fresh.spanContext().traceId, traceId);
    assert.equal(fresh.parentSpanContext, undefined);
  });

  test('propagate: "trusted" continues only what a trusted proxy sends (a Node server, over loopback)', async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    const made = (trusted: string) => {
      const server = createApp({ trustProxy: { addresses: [trusted] } });
      server.use(otel({ tracerProvider, meterProvider, propagate: "trusted" }));
      server.get("/hop", (ctx) => ctx.response.write("ok"));
      return serve(server, { port: 0, hostname: "127.0.0.1", signals: false });
    };
    const behindProxy = await made("127.0.0.1");
    const open = await made("10.0.0.0/8");
    try {
      await fetch(new URL("/hop", behindProxy.url), { headers: { traceparent } }).then((res) => res.text());
      assert.equal(only("GET /hop").spanContext().traceId, traceId);
      spans.reset();
      await fetch(new URL("/hop", open.url), { headers: { traceparent } }).then((res) => res.text());
      assert.notEqual(only("GET /hop").spanContext().traceId, traceId);
      // app.request has no peer: nothing it sends is trusted either.
      spans.reset();
      await app({ propagate: "trusted" }).request("/api/users/1", { headers: { traceparent } });
      assert.notEqual(only("GET /api/users/:id").spanContext().traceId, traceId);
    } finally {
      await behindProxy.close();
      await open.close();
    }
  });

  test("the span ends when a streamed body's last chunk is read, not when the handler returns", async () => {
    const res = await app().request("/api/stream");
    assert.equal(spans.getFinishedSpans().length, 0, "still open while the body streams");
    assert.equal(await res.text(), "chunk 1\nchunk 2\nchunk 3\n");
    const span = only("GET /api/stream");
    const [seconds, nanos] = span.duration;
    assert.ok(seconds * 1000 + nanos / 1e6 >= 15, "covers the three chunks' 5 ms waits");
  });

  test("a client leaving a streamed body ends the span", async () => {
    const res = await app().request("/api/stream");
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
    only("GET /api/stream");
  });

  test("spanOf(ctx) gives the request's span to the app; ctx.route names the route", async () => {
    const res = await app().request("/api/span");
    assert.equal(await res.text(), "/api/span");
    assert.equal(only("GET /api/span").attributes["app.tenant"], "acme");
  });

  test("with no SDK (the API's no-op), nothing is recorded and the caller's trace still reaches the app", async () => {
    const server = createApp();
    server.use(
      otel({
        tracerProvider: new ProxyTracerProvider(),
        meterProvider: { getMeter: () => createNoopMeter() },
      }),
    );
    server.get("/seen", (ctx) => {
      ctx.response.write(trace.getActiveSpan()?.spanContext().traceId ?? "none");
    });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await server.request("/seen", {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    assert.equal(await res.text(), traceId);
    assert.equal(spans.getFinishedSpans().length, 0);
  });

  test("logger() writes the request's trace_id and span_id, whichever of the two runs first", async () => {
    for (const loggerFirst of [false, true]) {
      spans.reset();
      const entries: LogEntry[] = [];
      const server = createApp();
      if (loggerFirst) server.use(logger({ sink: (entry) => entries.push(entry) }));
      server.use(otel({ tracerProvider, meterProvider }));
      if (!loggerFirst) server.use(logger({ sink: (entry) => entries.push(entry) }));
      server.get("/logged", (ctx) => ctx.response.write("ok"));
      await (await server.request("/logged")).text();
      const span = only("GET /logged");
      assert.equal(entries[0]?.trace_id, span.spanContext().traceId);
      assert.equal(entries[0]?.span_id, span.spanContext().spanId);
    }
    // Without a tracer, the entry has neither.
    const plain: LogEntry[] = [];
    const server = createApp();
    server.use(logger({ sink: (entry) => plain.push(entry) }));
    server.get("/logged", (ctx) => ctx.response.write("ok"));
    await server.request("/logged");
    assert.equal("trace_id" in plain[0]!, false);
  });

  test("options are checked when the middleware is made", () => {
    assert.throws(() => otel({ propagate: "yes" as never }), /propagate must be/);
    assert.throws(() => otel({ query: "some" as never }), /query must be/);
  });
});

describe("otel(): metrics", () => {
  test("a meter provider registered after the middleware is made is the one measured", async () => {
    const server = createApp();
    server.use(otel({ tracerProvider }));
    server.get("/late", (ctx) => ctx.response.write("late"));
    await server.request("/late");
    const lateExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const lateReader = new PeriodicExportingMetricReader({
      exporter: lateExporter,
      exportIntervalMillis: 3_600_000,
    });
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [lateReader] }));
    try {
      await server.request("/late");
      await lateReader.forceFlush();
      const points = lateExporter
        .getMetrics()
        .at(-1)!
        .scopeMetrics.flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === "http.server.request.duration")!.dataPoints;
      assert.equal((points[0] as DataPoint<Histogram>).value.count, 1, "the request after registration");
    } finally {
      metrics.disable();
    }
  });

  test("http.server.request.duration by route, method, status and error; active requests back to 0", async () => {
    const server = app();
    await server.request("/api/users/1");
    await server.request("/api/users/0");
    await server.request("/api/users", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "ada" }),
    });
    await reader.forceFlush();
    const metrics = metricExporter
      .getMetrics()
      .at(-1)!
      .scopeMetrics.flatMap((scope) => scope.metrics);
    const duration = metrics.find((metric) => metric.descriptor.name === "http.server.request.duration")!;
    assert.equal(duration.descriptor.unit, "s");
    const points = duration.dataPoints as DataPoint<Histogram>[];
    const find = (route: string, status: number) =>
      points.find(
        (point) =>
          point.attributes["http.route"] === route &&
          point.attributes["http.response.status_code"] === status &&
          point.attributes["url.scheme"] === "http",
      );
    const ok = find("/api/users/:id", 200)!;
    assert.ok(ok.value.count >= 1);
    assert.equal(ok.attributes["http.request.method"], "GET");
    assert.equal(ok.attributes["url.scheme"], "http");
    assert.equal(ok.attributes["error.type"], undefined);
    assert.equal(find("/api/users/:id", 404)!.attributes["error.type"], "UserNotFound");
    assert.ok(find("/api/users", 200));
    assert.deepEqual(ok.value.buckets.boundaries.slice(0, 3), [0.005, 0.01, 0.025]);
    const active = metrics.find((metric) => metric.descriptor.name === "http.server.active_requests")!;
    for (const point of active.dataPoints) assert.equal(point.value, 0);
  });
});

describe("otel(): a real OTLP/HTTP round trip", () => {
  test("spans exported by the SDK's OTLP exporter reach a receiver with their names and attributes", async () => {
    const received: unknown[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.url === "/v1/traces") received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    const exporter = new OTLPTraceExporter({
      url: `http://127.0.0.1:${port}/v1/traces`,
      headers: { "x-key": "k" },
    });
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
    try {
      const server = createApp();
      server.use(otel({ tracerProvider: provider, meterProvider }));
      server.get("/orders/:id", (ctx) => ctx.response.write("order"));
      const res = await server.request("/orders/9");
      assert.equal(res.status, 200);
      await provider.forceFlush();
      const exported = (
        received as {
          resourceSpans: {
            scopeSpans: {
              spans: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[];
            }[];
          }[];
        }[]
      ).flatMap((body) => body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      const span = exported.find((candidate) => candidate.name === "GET /orders/:id");
      assert.ok(span, `exported: ${exported.map((candidate) => candidate.name)}`);
      const attribute = (key: string) => span.attributes.find((entry) => entry.key === key)?.value;
      assert.deepEqual(attribute("http.route"), { stringValue: "/orders/:id" });
      assert.deepEqual(attribute("portico.request.id"), { stringValue: res.headers.get("x-request-id") });
    } finally {
      await provider.shutdown();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
