import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createApp, createRouter, defineView, HttpError } from "../../src/mod.ts";

function recordingLogger(): {
  lines: { message: string; error: unknown }[];
  error(message: string, error?: unknown): void;
} {
  const lines: { message: string; error: unknown }[] = [];
  return { lines, error: (message, error) => lines.push({ message, error }) };
}

describe("error handling", () => {
  test("a 500 is logged with the request id and shows nothing to the client", async () => {
    const logger = recordingLogger();
    const app = createApp({ logger });
    app.get("/", () => {
      throw new TypeError("database password is hunter2");
    });
    const res = await app.request("/");
    const body = await res.text();
    assert.equal(res.status, 500);
    assert.equal(body, "500 Internal Server Error");
    assert.equal(logger.lines.length, 1);
    assert.ok(logger.lines[0]!.message.includes(res.headers.get("x-request-id")!));
    assert.ok(logger.lines[0]!.error instanceof TypeError);
  });

  test("verbose adds the message and stack, for development", async () => {
    const app = createApp({ verbose: true, logger: recordingLogger() });
    app.get("/", () => {
      throw new TypeError("details");
    });
    const text = await (await app.request("/")).text();
    assert.match(text, /^500 Internal Server Error — TypeError: details\n\n.*TypeError: details/s);
    const json = (await (await app.request("/", { headers: { accept: "application/json" } })).json()) as {
      error: { message: string; stack: string };
    };
    assert.equal(json.error.message, "TypeError: details");
    assert.match(json.error.stack, /app-options\.test\.ts/);
  });

  test("declared HTTP errors are not logged", async () => {
    const logger = recordingLogger();
    const app = createApp({ logger });
    app.get("/", () => {
      throw new HttpError(403, "Forbidden", "Admins only");
    });
    assert.equal(await (await app.request("/")).text(), "403 Forbidden — Admins only");
    assert.equal(logger.lines.length, 0);
  });

  test("an HttpError whose code is no HTTP error status is a 500", async () => {
    const app = createApp({ logger: recordingLogger() });
    app.get("/", () => {
      throw new HttpError(4001, "ChannelOnly");
    });
    assert.equal((await app.request("/")).status, 500);
  });

  test("onError may answer with a Response or a view, or keep the default", async () => {
    const Problem = defineView({ json: (e: { title: string }) => e });
    const app = createApp({ logger: recordingLogger() });
    app.onError((error, ctx) => {
      if (error instanceof HttpError && error.code === 418) return new Response("teapot", { status: 418 });
      if (error instanceof RangeError) {
        ctx.response.status = 422;
        return Problem({ title: error.message });
      }
      return undefined;
    });
    app.get("/tea", () => {
      throw new HttpError(418, "Teapot");
    });
    app.get("/range", () => {
      throw new RangeError("out of range");
    });
    app.get("/other", () => {
      throw new Error("x");
    });
    const tea = await app.request("/tea");
    assert.deepEqual([tea.status, await tea.text()], [418, "teapot"]);
    assert.ok(tea.headers.get("x-request-id"));
    const range = await app.request("/range");
    assert.deepEqual([range.status, await range.json()], [422, { title: "out of range" }]);
    const other = await app.request("/other");
    assert.deepEqual([other.status, await other.text()], [500, "500 Internal Server Error"]);
  });

  test("a failing onError handler still gives a 500, and is logged", async () => {
    const logger = recordingLogger();
    const app = createApp({ logger });
    app.onError(() => {
      throw new Error("handler broke");
    });
    app.get("/", () => {
      throw new Error("first");
    });
    const res = await app.request("/");
    assert.deepEqual([res.status, await res.text()], [500, "500 Internal Server Error"]);
    assert.ok(logger.lines.some((line) => line.message.includes("onError handler failed")));
  });

  test("notFound customises unmatched requests, with the status preset to 404", async () => {
    const app = createApp();
    app.notFound((ctx) => {
      ctx.response.write(`Nothing at ${ctx.request.path}`);
    });
    const res = await app.request("/missing/page");
    assert.deepEqual([res.status, await res.text()], [404, "Nothing at /missing/page"]);
  });

  test("an invalid status set by a handler is a 500, not a crash", async () => {
    const app = createApp({ logger: recordingLogger() });
    app.get("/", (ctx) => {
      ctx.response.status = 1000;
    });
    assert.equal((await app.request("/")).status, 500);
  });

  test("next() called twice is an error", async () => {
    const app = createApp({ logger: recordingLogger() });
    app.use(async (_ctx, next) => {
      await next();
      await next();
    });
    app.get("/", () => {});
    assert.equal((await app.request("/")).status, 500);
  });
});

describe("request ids", () => {
  test("a well-formed incoming id is used when trusted", async () => {
    const app = createApp({ requestId: { trustIncoming: true } });
    app.get("/", (ctx) => {
      ctx.response.write(ctx.request.id);
    });
    const res = await app.request("/", { headers: { "x-request-id": "edge-42:abc" } });
    assert.equal(await res.text(), "edge-42:abc");
    assert.equal(res.headers.get("x-request-id"), "edge-42:abc");
  });

  test("a malformed or oversized incoming id is replaced even when trusted", async () => {
    const app = createApp({ requestId: { trustIncoming: true } });
    app.get("/", () => {});
    for (const id of ["has space", "x".repeat(129), "<script>", ""]) {
      const res = await app.request("/", { headers: { "x-request-id": id } });
      assert.match(res.headers.get("x-request-id") ?? "", /^[A-Za-z0-9_-]{12}-[0-9a-z]+$/, id);
    }
  });

  test("ids are unique, one process's share a random prefix, and another Portico service trusts them", async () => {
    const app = createApp();
    app.get("/", () => {});
    const ids = new Set<string>();
    for (let i = 0; i < 2000; i++) ids.add((await app.request("/")).headers.get("x-request-id")!);
    assert.equal(ids.size, 2000);
    const prefixes = new Set([...ids].map((id) => id.slice(0, 13)));
    assert.equal(prefixes.size, 1);
    const downstream = createApp({ requestId: { trustIncoming: true } });
    downstream.get("/", (ctx) => new Response(ctx.request.id));
    const [first] = ids;
    assert.equal(
      await (await downstream.request("/", { headers: { "x-request-id": first! } })).text(),
      first,
    );
  });

  test("the header name is configurable", async () => {
    const app = createApp({ requestId: { header: "X-Trace-Id", trustIncoming: true } });
    app.get("/", () => {});
    const res = await app.request("/", { headers: { "x-trace-id": "trace-1" } });
    assert.equal(res.headers.get("x-trace-id"), "trace-1");
    assert.equal(res.headers.get("x-request-id"), null);
  });
});

describe("limits", () => {
  test("limits can be lowered, and bad values are refused at creation", async () => {
    const app = createApp({ limits: { pathParamLength: 5 } });
    app.get("/p/:id", () => {});
    assert.equal((await app.request("/p/12345")).status, 200);
    const res = await app.request("/p/123456");
    assert.deepEqual(
      [res.status, await res.text()],
      [400, '400 Path Params Error — Path parameter "id" is longer than 5 characters'],
    );
    assert.throws(() => createApp({ limits: { bodySize: 0 } }), /limits.bodySize must be a positive integer/);
    assert.throws(() => createApp({ limits: { paramDepth: 1.5 } }), /limits.paramDepth/);
  });
});

describe("registration", () => {
  test("the same method and pattern twice throws, also with other parameter names", () => {
    const app = createApp();
    app.get("/users/:id", () => {});
    assert.throws(() => app.get("/users/:id", () => {}), /Route GET \/users\/:id is already registered/);
    assert.throws(() => app.get("/users/:uid/", () => {}), /already registered/);
    app.post("/users/:id", () => {});
    app.ws("/users/:id", () => {});
  });

  test("bad patterns, prefixes, methods and handlers are refused", () => {
    const app = createApp();
    assert.throws(() => app.get("users", () => {}), /must start with "\/"/);
    assert.throws(() => app.get("/x/:id(", () => {}), /Invalid route pattern/);
    assert.throws(() => app.route("BAD METHOD" as never, "/", () => {}), /Invalid HTTP method/);
    assert.throws(() => app.get("/", {} as never), /must be a function or an endpoint/);
    assert.throws(() => app.ws("/", {} as never), /must be a function or a channel/);
    assert.throws(() => app.mount("/x", app), /router made by createRouter/);
  });

  test("a router mounted twice serves both prefixes", async () => {
    const router = createRouter((r) => r.get("/ping", (ctx) => ctx.response.write("pong")));
    const app = createApp().mount("/a", router).mount("/b", router);
    assert.equal(await (await app.request("/a/ping")).text(), "pong");
    assert.equal(await (await app.request("/b/ping")).text(), "pong");
  });

  test("namespace middleware added after its routes still wraps them", async () => {
    const app = createApp();
    app.on("/api", (r) => {
      r.get("/x", () => {});
      r.use(async (ctx, next) => {
        ctx.response.headers.set("x-late", "1");
        await next();
      });
    });
    assert.equal((await app.request("/api/x")).headers.get("x-late"), "1");
  });
});

describe("context", () => {
  test("state is shared between middleware and the handler", async () => {
    const app = createApp();
    app.use(async (ctx, next) => {
      ctx.state.user = "ada";
      await next();
    });
    app.get("/", (ctx) => {
      ctx.response.write(String(ctx.state.user));
    });
    assert.equal(await (await app.request("/")).text(), "ada");
  });

  test("env and waitUntil come from the host", async () => {
    const app = createApp<{ greeting: string }>();
    const waited: Promise<unknown>[] = [];
    app.get("/", (ctx) => {
      ctx.waitUntil(Promise.resolve("later"));
      ctx.response.write(ctx.env.greeting);
    });
    const res = await app.fetch(
      new Request("http://localhost/"),
      { greeting: "hi" },
      { waitUntil: (p) => waited.push(p) },
    );
    assert.equal(await res.text(), "hi");
    assert.equal(waited.length, 1);
  });

  test("response.body replaces what was written; bytes and text mix", async () => {
    const app = createApp();
    app.get("/replace", (ctx) => {
      ctx.response.write("discarded");
      ctx.response.body = "kept";
    });
    app.get("/mixed", (ctx) => {
      ctx.response.write("a");
      ctx.response.write(new TextEncoder().encode("b"));
      ctx.response.write("c");
    });
    assert.equal(await (await app.request("/replace")).text(), "kept");
    assert.equal(await (await app.request("/mixed")).text(), "abc");
  });

  test("app.request accepts a Request or an absolute URL", async () => {
    const app = createApp();
    app.post("/", async (ctx) => {
      ctx.response.write(await ctx.request.raw.text());
    });
    assert.equal(
      await (await app.request(new Request("http://example.test/", { method: "POST", body: "x" }))).text(),
      "x",
    );
    assert.equal(
      await (await app.request("http://example.test/", { method: "POST", body: "y" })).text(),
      "y",
    );
  });
});
