import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createApp } from "../../src/mod.ts";
import { type SSEStream, sse } from "../../src/sse/mod.ts";
import { formatEvent } from "../../src/sse/sse.ts";

describe("formatEvent", () => {
  test("event, id, retry and data lines; multi-line data split on CRLF, CR and LF; other data as JSON", () => {
    assert.equal(
      formatEvent({ event: "tick", id: "7", retry: 1000, data: "a\r\nb\rc\nd" }),
      "event: tick\nid: 7\nretry: 1000\ndata: a\ndata: b\ndata: c\ndata: d\n\n",
    );
    assert.equal(formatEvent({ data: { n: 1 } }), 'data: {"n":1}\n\n');
    assert.equal(formatEvent({ data: "" }), "data: \n\n");
  });

  test("CR/LF in event or id, NUL in id, a bad retry or undefined data are refused", () => {
    for (const bad of [
      { event: "a\nevent: admin", data: "x" },
      { event: "a\r", data: "x" },
      { id: "1\ndata: injected", data: "x" },
      { id: "1\0", data: "x" },
      { retry: -1, data: "x" },
      { retry: 1.5, data: "x" },
      { data: undefined },
    ]) {
      assert.throws(() => formatEvent(bad), TypeError, JSON.stringify(bad));
    }
  });
});

describe("sse()", () => {
  test("streams the events with the event-stream headers, then closes when the callback returns", async () => {
    const app = createApp();
    app.get("/events", (ctx) =>
      sse(ctx, async (stream) => {
        await stream.send({ event: "hello", data: "one", id: "1" });
        await stream.send({ data: { two: 2 }, id: "2" });
      }),
    );
    const res = await app.request("/events");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-cache, no-transform");
    assert.equal(res.headers.get("x-accel-buffering"), "no");
    assert.ok(res.headers.get("x-request-id"));
    assert.equal(await res.text(), 'event: hello\nid: 1\ndata: one\n\nid: 2\ndata: {"two":2}\n\n');
  });

  test("lastEventId comes from Last-Event-ID; writes after close are ignored", async () => {
    const app = createApp();
    app.get("/events", (ctx) =>
      sse(ctx, async (stream) => {
        await stream.send({ data: `resume after ${stream.lastEventId}` });
        stream.close();
        assert.equal(stream.closed, true);
        assert.equal(stream.signal.aborted, true);
        await stream.send({ data: "ignored" });
        await stream.comment("ignored");
      }),
    );
    const res = await app.request("/events", { headers: { "last-event-id": "41" } });
    assert.equal(await res.text(), "data: resume after 41\n\n");
  });

  test("the client going away aborts stream.signal and ends a loop", async () => {
    let ended: (value: string) => void = () => {};
    const done = new Promise<string>((resolve) => (ended = resolve));
    const app = createApp();
    app.get("/events", (ctx) =>
      sse(ctx, async (stream: SSEStream) => {
        let n = 0;
        while (!stream.closed) await stream.send({ data: String(n++) });
        ended(`aborted=${stream.signal.aborted} after ${n > 0}`);
      }),
    );
    const res = await app.request("/events");
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    assert.equal(await done, "aborted=true after true");
  });

  test("heartbeat comments keep a quiet stream alive; an error in the callback closes the stream", async () => {
    const errors: unknown[] = [];
    const app = createApp();
    app.get("/quiet", (ctx) =>
      sse(
        ctx,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 120));
          throw new Error("boom");
        },
        { heartbeat: 20, onError: (error) => errors.push(error) },
      ),
    );
    const text = await (await app.request("/quiet")).text();
    assert.match(text, /^(: heartbeat\n\n)+$/);
    assert.equal((errors[0] as Error).message, "boom");
  });
});
