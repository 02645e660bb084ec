import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { serve } from "../../src/adapters/node.ts";
import { bodyLimit, type LogEntry, logger, PayloadTooLarge } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, readBody, t } from "../../src/mod.ts";

const Echo = defineEndpoint({
  params: { json: t.body({ text: v.string() }, { require: true }) },
  call(ep) {
    ep.context.response.write(`${ep.params.json.text.length}`);
  },
});

describe("bodyLimit()", () => {
  const app = createApp({ limits: { bodySize: 64 } });
  app.on("/big", (r) => {
    r.use(bodyLimit(4096));
    r.post("/echo", Echo);
    r.post("/raw", async (ctx) => ctx.response.write(`${(await readBody(ctx)).length}`));
  });
  app.on("/tiny", (r) => {
    r.use(bodyLimit(16));
    r.post("/echo", Echo);
  });
  app.post("/echo", Echo);
  const post = (path: string, size: number, init: RequestInit = {}) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "x".repeat(size) }),
      ...init,
    });

  test("raises or lowers the app's limit for the routes it wraps; declares PayloadTooLarge", async () => {
    assert.equal((await post("/big/echo", 1000)).status, 200);
    assert.equal((await post("/echo", 1000)).status, 413);
    assert.equal((await post("/tiny/echo", 30)).status, 413);
    assert.equal((await post("/tiny/echo", 2)).status, 200);
    assert.equal(bodyLimit(1).errors.PayloadTooLarge, PayloadTooLarge);
    assert.throws(() => bodyLimit(0), RangeError);
  });

  test("a Content-Length over the limit is refused before reading, with Connection: close", async () => {
    const res = await app.request("/tiny/echo", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "100000" },
      body: JSON.stringify({ text: "x" }),
    });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get("connection"), "close");
    assert.match(await res.text(), /exceeds the limit of 16 bytes/);
  });

  test("chunked bodies (no Content-Length) are counted as they arrive, on a real server too", async () => {
    const server = await serve(app, { port: 0 });
    try {
      const chunked = (size: number) =>
        new ReadableStream({
          start(controller) {
            const text = JSON.stringify({ text: "y".repeat(size) });
            for (let i = 0; i < text.length; i += 10)
              controller.enqueue(new TextEncoder().encode(text.slice(i, i + 10)));
            controller.close();
          },
        });
      const send = (path: string, size: number) =>
        fetch(new URL(path, server.url), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: chunked(size),
          duplex: "half",
        } as RequestInit);
      assert.equal((await send("/big/raw", 3000)).status, 200);
      assert.equal((await send("/big/raw", 5000)).status, 413);
      assert.equal((await send("/tiny/echo", 100)).status, 413);
    } finally {
      await server.close();
    }
  });
});

describe("logger()", () => {
  test("one entry per request: id, method, path without query, status, duration; the rescued error's name", async () => {
    const entries: LogEntry[] = [];
    const app = createApp({ logger: { error: () => {} } });
    app.use(logger({ sink: (entry) => entries.push(entry) }));
    app.get("/ok", (ctx) => ctx.response.write("ok"));
    app.get("/boom", () => {
      throw new TypeError("boom");
    });
    app.get("/raw", () => new Response(null, { status: 202 }));
    const ok = await app.request("/ok?token=secret");
    await app.request("/boom");
    await app.request("/raw");
    await app.request("/missing");
    assert.equal(entries.length, 4);
    const [first, boom, raw, missing] = entries;
    assert.equal(first!.id, ok.headers.get("x-request-id"));
    assert.deepEqual(
      { method: first!.method, path: first!.path, status: first!.status, error: first!.error },
      { method: "GET", path: "/ok", status: 200, error: undefined },
    );
    assert.ok(first!.durationMs >= 0 && !Number.isNaN(Date.parse(first!.time)));
    assert.equal(JSON.stringify(entries).includes("secret"), false);
    assert.deepEqual([boom!.status, boom!.error], [500, "TypeError"]);
    assert.equal(raw!.status, 202);
    assert.deepEqual([missing!.status, missing!.error], [404, "NotFound"]);
    // The time is the request's arrival, to the millisecond, also for requests a few milliseconds apart
    // (the ISO form is made once per millisecond and shared).
    for (let i = 0; i < 3; i++) {
      const before = Date.now();
      await app.request("/ok");
      const after = Date.now();
      const at = Date.parse(entries.at(-1)!.time);
      assert.ok(at >= before && at <= after, `${entries.at(-1)!.time} within [${before}, ${after}]`);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
  });
});
