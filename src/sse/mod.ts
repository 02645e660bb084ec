/**
 * Server-sent events: `sse(ctx, (stream) => …)` answers with an event stream that resumes from
 * `Last-Event-ID`, stops when the client goes away, and keeps quiet connections open.
 *
 * @example
 * import { sse } from "portico/sse";
 * app.get("/events", (ctx) => sse(ctx, async (stream) => {
 *   await stream.send({ event: "hello", data: { at: Date.now() }, id: "1" });
 * }));
 *
 * @module portico/sse
 */

export { type ServerSentEvent, type SSEOptions, type SSEStream, sse } from "./sse.ts";
