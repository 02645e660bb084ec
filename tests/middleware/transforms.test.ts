import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { describe, test } from "node:test";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { serve } from "../../src/adapters/node.ts";
import { compress, etag, HandlerTimeout, PreconditionFailed, timeout } from "../../src/middleware/mod.ts";
import { createApp, defineView } from "../../src/mod.ts";
import { sse } from "../../src/sse/mod.ts";

const big = "portico ".repeat(500);
const Page = defineView({ json: (text: string) => ({ text }), text: (text: string) => text });

describe("etag()", () => {
  const app = createApp();
  app.use(etag());
  app.get("/page", () => Page(big));
  app.get("/written", (ctx) => ctx.response.write("hello"));
  app.get("/own", (ctx) => {
    ctx.response.headers.set("etag", '"v7"');
    ctx.response.write("version seven");
  });
  app.get("/stream", () => new Response(new Blob(["streamed"]).stream()));
  app.get("/sized", () => new Response("sized", { headers: { "content-length": "5" } }));
  app.get("/blob", (ctx) => {
    ctx.response.body = new Blob(["blob"]);
    if (ctx.request.query === "sized") ctx.response.headers.set("content-length", "4");
  });
  app.get("/events", (ctx) => sse(ctx, (stream) => stream.send({ data: "one" })));
  app.get("/missing", (ctx) => {
    ctx.response.status = 404;
    ctx.response.write("gone");
  });
  app.post("/written", (ctx) => ctx.response.write("hello"));

  test("tags a known body strongly; If-None-Match answers 304 without body or content headers", async () => {
    const first = await app.request("/written");
    const tag = first.headers.get("etag");
    assert.match(tag ?? "", /^"[A-Za-z0-9_-]{16}"$/);
    assert.equal(await first.text(), "hello");
    const again = await app.request("/written", { headers: { "if-none-match": `"other", ${tag}` } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("etag"), tag);
    assert.equal(again.headers.get("content-type"), null);
    assert.equal(again.headers.get("content-length"), null);
    assert.ok(again.headers.get("x-request-id"));
    assert.equal(await again.text(), "");
    const weakly = await app.request("/written", { headers: { "if-none-match": `W/${tag}` } });
    assert.equal(weakly.status, 304, "If-None-Match compares weakly");
    assert.equal((await app.request("/written", { headers: { "if-none-match": "*" } })).status, 304);
  });

  test("the tag depends on the negotiated rendering, and HEAD gets GET's tag and length", async () => {
    const json = await app.request("/page", { headers: { accept: "application/json" } });
    const text = await app.request("/page", { headers: { accept: "text/plain" } });
    assert.notEqual(json.headers.get("etag"), text.headers.get("etag"));
    const head = await app.request("/page", { method: "HEAD", headers: { accept: "text/plain" } });
    assert.equal(head.headers.get("etag"), text.headers.get("etag"));
    assert.equal(head.headers.get("content-length"), String(big.length));
    assert.equal(await head.text(), "");
  });

  test("If-Match answers the declared 412 unless a tag matches strongly", async () => {
    const tag = (await app.request("/written")).headers.get("etag")!;
    assert.equal((await app.request("/written", { headers: { "if-match": tag } })).status, 200);
    assert.equal((await app.request("/written", { headers: { "if-match": "*" } })).status, 200);
    const refused = await app.request("/written", {
      headers: { "if-match": `W/${tag}`, accept: "application/json" },
    });
    assert.equal(refused.status, 412);
    assert.equal(((await refused.json()) as { error: { name: string } }).error.name, "Precondition Failed");
    assert.equal(etag().errors.PreconditionFailed, PreconditionFailed);
  });

  test("keeps a tag the handler set; weak option; leaves streams, event streams, errors and POST alone", async () => {
    const own = await app.request("/own", { headers: { "if-none-match": '"v7"' } });
    assert.equal(own.status, 304);
    const stream = await app.request("/stream");
    assert.equal(stream.headers.get("etag"), null);
    assert.equal(await stream.text(), "streamed");
    assert.ok((await app.request("/sized")).headers.get("etag"));
    // A Blob is tagged when its length is said, as a stream is; its bytes are sent either way.
    const blob = await app.request("/blob?sized");
    assert.match(blob.headers.get("etag") ?? "", /^"[\w-]{16}"$/);
    assert.equal(await blob.text(), "blob");
    const unsized = await app.request("/blob");
    assert.equal(unsized.headers.get("etag"), null);
    assert.equal(await unsized.text(), "blob");
    const events = await app.request("/events");
    assert.equal(events.headers.get("etag"), null);
    await events.body?.cancel();
    assert.equal((await app.request("/missing")).headers.get("etag"), null);
    assert.equal((await app.request("/written", { method: "POST" })).headers.get("etag"), null);
    const weak = createApp();
    weak.use(etag({ weak: true }));
    weak.get("/", (ctx) => ctx.response.write("x"));
    assert.match((await weak.request("/")).headers.get("etag") ?? "", /^W\/"/);
  });

  test("a hostile If-None-Match (long, unbalanced quotes) is a miss", async () => {
    const hostile = `${'"'.repeat(50_000)}W/${"a,".repeat(50_000)}`;
    const response = await app.request("/written", { headers: { "if-none-match": hostile } });
    assert.equal(response.status, 200);
  });
});

describe("compress()", () => {
  const app = createApp();
  app.use(compress());
  app.get("/page", () => Page(big));
  app.get("/small", (ctx) => ctx.response.write("tiny"));
  app.get("/events", (ctx) => sse(ctx, (stream) => stream.send({ data: big })));
  app.get("/png", (ctx) => {
    ctx.response.headers.set("content-type", "image/png");
    ctx.response.body = new Uint8Array(4096);
  });
  app.get("/encoded", (ctx) => {
    ctx.response.headers.set("content-encoding", "gzip");
    ctx.response.body = new Uint8Array(4096);
  });
  app.get("/no-transform", (ctx) => {
    ctx.response.headers.set("cache-control", "private, no-transform");
    ctx.response.write(big);
  });
  app.get("/returned", () => Response.json({ big }));
  app.get("/stream", (ctx) => {
    ctx.response.headers.set("content-type", "text/plain; charset=utf-8");
    ctx.response.body = new Blob([big]).stream();
  });
  app.on("/tagged", (r) => {
    r.use(compress());
    r.use(etag());
    r.get("/", (ctx) => ctx.response.write(big));
  });
  const get = (path: string, encoding: string, method = "GET") =>
    app.request(path, { method, headers: { "accept-encoding": encoding, accept: "text/plain" } });

  test("gzip or deflate by the client's q-values, with Vary; the body decompresses to the original", async () => {
    const gzip = await get("/page", "deflate;q=0.5, gzip");
    assert.equal(gzip.headers.get("content-encoding"), "gzip");
    assert.equal(gzip.headers.get("content-length"), null);
    assert.match(gzip.headers.get("vary") ?? "", /Accept-Encoding/);
    assert.equal(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString(), big);
    const deflate = await get("/page", "gzip;q=0.1, deflate");
    assert.equal(deflate.headers.get("content-encoding"), "deflate");
    assert.equal(inflateSync(new Uint8Array(await deflate.arrayBuffer())).toString(), big);
    const returned = await get("/returned", "gzip");
    assert.equal(returned.headers.get("content-encoding"), "gzip", "a returned stream of unknown size");
  });

  test("sends as is: no Accept-Encoding, q=0, identity only, under the threshold, images, encoded, no-transform", async () => {
    for (const [path, encoding] of [
      ["/page", ""],
      ["/page", "gzip;q=0, deflate;q=0"],
      ["/page", "identity"],
      ["/page", "*;q=0"],
      ["/small", "gzip"],
      ["/png", "gzip"],
      ["/encoded", "br, gzip"],
      ["/no-transform", "gzip"],
    ] as const) {
      const response = await get(path, encoding);
      const expected = path === "/encoded" ? "gzip" : null;
      assert.equal(response.headers.get("content-encoding"), expected, `${path} with "${encoding}"`);
      await response.arrayBuffer();
    }
    assert.equal(await (await get("/page", "")).text(), big);
  });

  test("never compresses an event stream (events would be held back)", async () => {
    const events = await get("/events", "gzip, deflate, br");
    assert.equal(events.headers.get("content-encoding"), null);
    const reader = events.body!.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /^data: portico/);
    await reader.cancel();
  });

  test("HEAD gets GET's headers without the work; a strong ETag set inside becomes weak", async () => {
    const head = await get("/page", "gzip", "HEAD");
    assert.equal(head.headers.get("content-encoding"), "gzip");
    assert.equal(await head.text(), "");
    const tagged = await get("/tagged/", "gzip");
    assert.match(tagged.headers.get("etag") ?? "", /^W\/"/);
    const plain = await get("/tagged/", "");
    assert.match(plain.headers.get("etag") ?? "", /^"/);
    assert.equal(gunzipSync(new Uint8Array(await tagged.arrayBuffer())).toString(), big);
  });

  test("rejects options it cannot honour", () => {
    assert.throws(() => compress({ encodings: ["zstd" as "gzip"] }), /unknown encoding zstd/);
    assert.throws(() => compress({ threshold: -1 }), /threshold/);
  });

  test("on Node's server: zlib in one call, so br too, with the compressed length; streams stay streamed", async () => {
    const server = await serve(app, { port: 0 });
    // The raw bytes as sent (fetch would decode them).
    const raw = (path: string, encoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
        (resolve, reject) => {
          const req = httpRequest(
            `${server.url}${path.slice(1)}`,
            { headers: { "accept-encoding": encoding, accept: "text/plain" } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on("data", (chunk: Buffer) => chunks.push(chunk));
              res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          );
          req.on("error", reject);
          req.end();
        },
      );
    try {
      const decoders = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync };
      for (const [coding, decode] of Object.entries(decoders)) {
        const { headers, body } = await raw("/page", coding);
        assert.equal(headers["content-encoding"], coding);
        assert.equal(headers["content-length"], String(body.byteLength), `${coding}: the compressed length`);
        assert.ok(body.byteLength < big.length / 4, `${coding}: compressed`);
        assert.equal(decode(body).toString(), big);
      }
      // The client's preference decides, br included.
      assert.equal((await raw("/page", "gzip;q=0.5, br")).headers["content-encoding"], "br");
      // A body of unknown size is still streamed through CompressionStream.
      const streamed = await raw("/stream", "gzip");
      assert.equal(streamed.headers["content-encoding"], "gzip");
      assert.equal(streamed.headers["content-length"], undefined);
      assert.equal(gunzipSync(streamed.body).toString(), big);
    } finally {
      await server.close();
    }
  });

  test("over a real socket: the client decompresses what Node sends", async () => {
    const server = await serve(app, { port: 0 });
    try {
      const response = await fetch(`${server.url}page`, { headers: { accept: "text/plain" } });
      assert.equal(response.headers.get("content-encoding"), "gzip");
      assert.equal(await response.text(), big);
    } finally {
      await server.close();
    }
  });
});

describe("timeout()", () => {
  const app = createApp();
  let aborted: unknown;
  app.on("/slow", (r) => {
    r.use(timeout(50));
    r.get("/wait", async (ctx) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        ctx.signal.addEventListener("abort", () => {
          aborted = ctx.signal.reason;
          clearTimeout(timer);
          resolve();
        });
      });
      ctx.response.write("late");
    });
    r.get("/quick", (ctx) => ctx.response.write("in time"));
  });
  app.get("/unbounded", (ctx) => ctx.response.write(String(ctx.signal.aborted)));

  test("answers the declared 503 at the deadline and aborts ctx.signal", async () => {
    const response = await app.request("/slow/wait", { headers: { accept: "application/json" } });
    assert.equal(response.status, 503);
    const body = (await response.json()) as { error: { name: string; message: string } };
    assert.equal(body.error.name, "Handler Timeout");
    assert.match(body.error.message, /longer than 50 ms/);
    assert.ok(aborted instanceof HandlerTimeout);
    assert.equal(timeout(1).errors.HandlerTimeout, HandlerTimeout);
  });

  test("a handler in time is untouched; routes outside keep the request's own signal", async () => {
    assert.equal(await (await app.request("/slow/quick")).text(), "in time");
    assert.equal(await (await app.request("/unbounded")).text(), "false");
    assert.throws(() => timeout(0), RangeError);
  });
});
