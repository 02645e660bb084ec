import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { describe, test } from "node:test";
import * as v from "valibot";
import { serve } from "../../src/adapters/node.ts";
import { createApp, defineEndpoint, defineView, t } from "../../src/mod.ts";
import { rawRequest } from "../conformance/client.ts";

function rawHttp(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let out = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      out += chunk;
    });
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
    socket.setTimeout(5000, () => socket.destroy(new Error("timed out")));
  });
}

describe("portico/node serve()", () => {
  test("port 0 picks a free port; url shows it; close() stops the server", async () => {
    const app = createApp();
    app.get("/", (ctx) => ctx.response.write("up"));
    const server = await serve(app, { port: 0 });
    assert.equal(server.url.hostname, "127.0.0.1");
    assert.ok(server.port > 0);
    assert.equal(server.url.port, String(server.port));
    assert.equal(await (await fetch(server.url)).text(), "up");
    await server.close();
    await assert.rejects(fetch(server.url));
  });

  test("the URL's host comes from a validated Host header, never from the target", async () => {
    const app = createApp();
    app.get("/*", (ctx) => ctx.response.write(ctx.request.url));
    const server = await serve(app, { port: 0 });
    try {
      const origin = server.url.origin;
      const sneaky = await rawRequest(origin, "//evil.example/steal", { host: "api.test" });
      assert.deepEqual([sneaky.status, sneaky.body], [200, "http://api.test//evil.example/steal"]);
      const dots = await rawRequest(origin, "/a/../b/%2e%2e/c", { host: "api.test:8080" });
      assert.equal(dots.body, "http://api.test:8080/c");
      const bad = await rawRequest(origin, "/", { host: "evil.example/path@x" });
      assert.equal(bad.status, 400);
      assert.ok(bad.headers["x-request-id"]);
      const absolute = await rawHttp(
        server.port,
        "GET http://other.example/abs?q=1 HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n",
      );
      assert.match(absolute, /\r\n\r\nhttp:\/\/api\.test\/abs\?q=1$/);
    } finally {
      await server.close();
    }
  });

  test("HEAD has no body; several Set-Cookie headers stay apart", async () => {
    const app = createApp();
    app.get("/", (ctx) => {
      ctx.response.headers.append("set-cookie", "a=1");
      ctx.response.headers.append("set-cookie", "b=2");
      ctx.response.write("body");
    });
    const server = await serve(app, { port: 0 });
    try {
      const head = await rawHttp(server.port, "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assert.match(head, /^HTTP\/1\.1 200 OK/);
      assert.ok(head.endsWith("\r\n\r\n"), "no body after the headers");
      assert.equal(head.match(/^set-cookie: /gim)?.length, 2);
    } finally {
      await server.close();
    }
  });

  test("a large streamed body arrives whole (backpressure through pipeline)", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(97);
    const app = createApp();
    app.get("/big", () => {
      let sent = 0;
      return new Response(
        new ReadableStream({
          pull(controller) {
            if (sent === 80) controller.close();
            else {
              sent++;
              controller.enqueue(chunk);
            }
          },
        }),
      );
    });
    const server = await serve(app, { port: 0 });
    try {
      const body = new Uint8Array(await (await fetch(new URL("/big", server.url))).arrayBuffer());
      assert.equal(body.byteLength, 80 * 64 * 1024);
    } finally {
      await server.close();
    }
  });

  test("a client that goes away aborts request.signal", async () => {
    let aborted: () => void = () => {};
    const wasAborted = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const app = createApp();
    app.get("/slow", (ctx) => {
      ctx.request.raw.signal.addEventListener("abort", () => aborted());
      return new Promise<void>(() => {});
    });
    const server = await serve(app, { port: 0, gracePeriod: 100 });
    try {
      const req = httpRequest({ host: "127.0.0.1", port: server.port, path: "/slow" });
      req.on("error", () => {});
      req.end();
      await new Promise((resolve) => setTimeout(resolve, 100));
      req.destroy();
      await wasAborted;
    } finally {
      await server.close();
    }
  });

  test("close() lets a request in flight finish", async () => {
    let release: () => void = () => {};
    const app = createApp();
    app.get("/wait", async (ctx) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      ctx.response.write("finished");
    });
    const server = await serve(app, { port: 0 });
    const pending = fetch(new URL("/wait", server.url)).then((res) => res.text());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = server.close();
    release();
    assert.equal(await pending, "finished");
    await closing;
  });

  test("Node's protective timeouts stay non-zero", async () => {
    await assert.rejects(
      serve(createApp(), { port: 0, headersTimeout: 0 }),
      /headersTimeout must stay above 0/,
    );
    await assert.rejects(
      serve(createApp(), { port: 0, requestTimeout: 0 }),
      /requestTimeout must stay above 0/,
    );
    const server = await serve(createApp(), { port: 0 });
    try {
      assert.ok(server.server.headersTimeout > 0);
      assert.ok(server.server.requestTimeout > 0);
    } finally {
      await server.close();
    }
  });

  test("request bodies reach handlers and endpoints; the body limit holds over a socket, declared or not", async () => {
    const app = createApp({ limits: { bodySize: 1024 } });
    app.post("/echo", async (ctx) => {
      ctx.response.write(await ctx.request.raw.text());
    });
    const Echo = defineView({ text: (name: string) => name });
    app.post(
      "/users",
      defineEndpoint({
        params: { json: t.body({ name: v.string() }, { require: true }) },
        call: (ep) => Echo(ep.params.json.name),
      }),
    );
    const server = await serve(app, { port: 0 });
    try {
      const echo = await fetch(new URL("/echo", server.url), { method: "POST", body: "hello over the wire" });
      assert.equal(await echo.text(), "hello over the wire");
      const small = await fetch(new URL("/users", server.url), { method: "POST", body: '{"name":"Ada"}' });
      assert.deepEqual([small.status, await small.text()], [200, "Ada"]);
      const big = JSON.stringify({ name: "x".repeat(2000) });
      const declared = await fetch(new URL("/users", server.url), { method: "POST", body: big });
      assert.equal(declared.status, 413);
      // Chunked: no Content-Length to refuse up front; the limit is counted while reading.
      const chunked = await rawHttp(
        server.port,
        `POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${(2000).toString(16)}\r\n${"y".repeat(2000)}\r\n0\r\n\r\n`,
      );
      assert.match(chunked, /^HTTP\/1\.1 413 /);
    } finally {
      await server.close();
    }
  });
});
