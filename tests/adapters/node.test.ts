import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { describe, test } from "node:test";
import * as v from "valibot";
import { serve, toNodeHandler } from "../../src/adapters/node.ts";
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

  test("the headers as written: one Content-Length, right, whatever the app set; repeated names joined, Set-Cookie apart; HEAD without a body", async () => {
    const app = createApp();
    app.get("/", (ctx) => {
      ctx.response.headers.set("Content-Length", "3");
      ctx.response.headers.append("x-list", "a");
      ctx.response.headers.append("X-List", "b");
      ctx.response.headers.append("set-cookie", "a=1");
      ctx.response.headers.append("set-cookie", "b=2");
      ctx.response.write("hello");
    });
    const server = await serve(app, { port: 0 });
    try {
      const answer = await rawHttp(server.port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assert.deepEqual(answer.match(/^content-length: .*$/gim), ["content-length: 5"]);
      assert.deepEqual(answer.match(/^x-list: .*$/gim), ["x-list: a, b"]);
      assert.equal(answer.match(/^set-cookie: /gim)?.length, 2);
      assert.ok(answer.endsWith("\r\n\r\nhello"));
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
    let arrived: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const app = createApp();
    app.get("/slow", (ctx) => {
      ctx.request.raw.signal.addEventListener("abort", () => aborted());
      arrived();
      return new Promise<void>(() => {});
    });
    const server = await serve(app, { port: 0, gracePeriod: 100 });
    try {
      const req = httpRequest({ host: "127.0.0.1", port: server.port, path: "/slow" });
      req.on("error", () => {});
      req.end();
      await inHandler;
      req.destroy();
      await wasAborted;
    } finally {
      await server.close();
    }
  });

  test("close() lets a request in flight finish", async () => {
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const app = createApp();
    app.get("/wait", async (ctx) => {
      await new Promise<void>((resolve) => {
        release = resolve;
        arrived();
      });
      ctx.response.write("finished");
    });
    const server = await serve(app, { port: 0 });
    const pending = fetch(new URL("/wait", server.url)).then((res) => res.text());
    await inHandler;
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

  test("a body over the limit: 413 with Connection: close, and the rest is not read", async () => {
    const app = createApp();
    app.post(
      "/users",
      defineEndpoint({ params: { json: t.body({ name: v.string() }, { require: true }) }, call: () => {} }),
    );
    const server = await serve(app, { port: 0 });
    try {
      const declared = 50 * 1024 * 1024;
      const { head, written } = await new Promise<{ head: string; written: number }>((resolve, reject) => {
        const socket = connect(server.port, "127.0.0.1");
        let head = "";
        let written = 0;
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (!socket.destroyed && written < declared) {
            written += chunk.length;
            if (!socket.write(chunk)) return void socket.once("drain", pump);
          }
        };
        socket.on("data", (data: Buffer) => {
          head += data.toString("latin1");
        });
        socket.on("close", () => resolve({ head, written }));
        socket.on("error", () => {});
        socket.setTimeout(10_000, () => reject(new Error("the server kept reading")));
        socket.write(
          `POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
        );
        pump();
      });
      assert.match(head, /^HTTP\/1\.1 413 /);
      assert.match(head, /\r\nconnection: close\r\n/i);
      assert.ok(written < declared / 4, `the server stopped reading (took ${written} of ${declared} bytes)`);
    } finally {
      await server.close();
    }
  });

  test("a client sending its headers slowly is cut off after headersTimeout (slowloris)", async () => {
    const app = createApp();
    app.get("/", (ctx) => ctx.response.write("fine"));
    const server = await serve(app, { port: 0, headersTimeout: 500 });
    try {
      const cutAfter = await new Promise<number>((resolve, reject) => {
        const started = Date.now();
        const socket = connect(server.port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n"));
        const drip = setInterval(() => socket.write("X-Slow: 1\r\n"), 100);
        socket.on("close", () => {
          clearInterval(drip);
          resolve(Date.now() - started);
        });
        socket.on("error", () => {});
        socket.setTimeout(10_000, () => reject(new Error("the slow client was never cut off")));
      });
      assert.ok(cutAfter >= 400, `cut after ${cutAfter} ms`);
      assert.equal(await (await fetch(server.url)).text(), "fine");
    } finally {
      await server.close();
    }
  });

  test("toNodeHandler mounts the app in an existing node:http server", async () => {
    const app = createApp();
    app.get("/users/:id", (ctx) =>
      ctx.response.write(`user ${ctx.request.pathParams.id} at ${ctx.request.url}`),
    );
    const server = createServer(toNodeHandler(app));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/users/7`);
      assert.equal(await res.text(), `user 7 at http://127.0.0.1:${port}/users/7`);
      assert.equal((await fetch(`http://127.0.0.1:${port}/nope`)).status, 404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("what Node refuses to send is a 500 with the app's request-id header, and the server lives on", async () => {
    const errors: string[] = [];
    // Any fetch app (not only Portico's) may hand over a response Node cannot write.
    const broken = {
      requestIdHeader: "x-trace",
      logger: { error: (message: string) => errors.push(message) },
      fetch: () =>
        ({ status: 1000, headers: new Headers({ "x-trace": "abc" }), body: null }) as unknown as Response,
    };
    const server = await serve(broken, { port: 0 });
    try {
      const res = await fetch(server.url);
      assert.equal(res.status, 500);
      assert.equal(res.statusText, "Internal Server Error", "the 500's own reason, not the refused one's");
      assert.equal(res.headers.get("x-trace"), "abc");
      assert.match(errors[0] ?? "", /request abc could not be written/);
      // A header value Fetch allows and Node refuses (DEL), on a 201: the 500 says its own reason.
      broken.fetch = () =>
        new Response("x", { status: 201, headers: { "x-trace": "def", "x-bad": "a\x7fb" } });
      const refused = await fetch(server.url);
      assert.deepEqual([refused.status, refused.statusText], [500, "Internal Server Error"]);
      assert.equal((await fetch(server.url)).status, 500, "still serving");
    } finally {
      await server.close();
    }
  });

  test("the app's websocket message limit is the one applied (no second setting)", async () => {
    const app = createApp({ limits: { wsMessageSize: 8 } });
    app.ws("/echo", (socket) => socket.onMessage((message) => socket.send(message)));
    const server = await serve(app, { port: 0 });
    try {
      const { wsSession } = await import("../conformance/client.ts");
      const small = await wsSession(server.url.origin, "/echo", { send: ["12345678"], closeAfter: 1 });
      assert.deepEqual(small.messages, ["12345678"]);
      const big = await wsSession(server.url.origin, "/echo", { send: ["123456789"] });
      assert.equal(big.code, 1009);
    } finally {
      await server.close();
    }
  });
});

test("the Node adapter reads a body's Content-Type as Headers would: any spelling of the name, repeats joined", async () => {
  const Echo = defineView({ json: (data: object) => data });
  const app = createApp();
  app.post(
    "/users",
    defineEndpoint({
      params: { json: t.body({ name: v.string() }) },
      call: (ep) => Echo({ got: ep.params.json ?? null }),
    }),
  );
  const server = await serve(app, { port: 0 });
  try {
    const body = '{"name":"Ada"}';
    const cases: [string, string[]][] = [
      ["upper-case name", ["CONTENT-TYPE: application/json"]],
      ["mixed-case value", ["Content-Type: Application/JSON; charset=utf-8"]],
      ["repeated", ["Content-Type: application/json", "content-type: text/plain"]],
      ["absent", []],
    ];
    for (const [name, headers] of cases) {
      const raw = await rawHttp(
        server.port,
        `POST /users HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join("")}Content-Length: ${body.length}\r\n\r\n${body}`,
      );
      // The same request through app.fetch, whose standard Request joins and folds headers itself.
      const expected = await app.fetch(
        new Request("http://a.test/users", {
          method: "POST",
          headers: headers.map((h) => h.split(": ") as [string, string]),
          body,
        }),
      );
      const status = Number(raw.split(" ")[1]);
      assert.equal(status, expected.status, name);
      assert.equal(raw.slice(raw.indexOf("\r\n\r\n") + 4), await expected.text(), name);
    }
  } finally {
    await server.close();
  }
});
