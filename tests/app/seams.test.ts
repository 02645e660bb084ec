// Seams found from outside in 0.2, in-process (issue 21); the ones that need a real server or another
// runtime are in tests/conformance/topics/seams.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  csrf,
  etag,
  type LogEntry,
  logger,
  NONCE,
  secureHeaders,
  timeout,
} from "../../src/middleware/mod.ts";
import { createApp, customMethod, defineEndpoint, t } from "../../src/mod.ts";
import { docsPage } from "../../src/openapi/mod.ts";
import { TopicHub } from "../../src/pubsub/hub.ts";
import { optionalPeer } from "../../src/runtime/optional-peer.ts";

test("route(customMethod('WS'), …) is an ordinary HTTP route; websocket routes come only from ws()", async () => {
  const app = createApp();
  app.route(customMethod("WS"), "/x", (ctx) => {
    ctx.response.write(`method ${ctx.request.method}`);
  });
  app.ws("/y", (socket) => socket.close());
  const response = await app.request("/x", { method: "WS" });
  assert.equal(await response.text(), "method WS");
  // A websocket handshake on /x is no websocket route: the HTTP route's path answers 405 for GET.
  const upgrade = await app.request("/x", {
    headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-version": "13" },
  });
  assert.equal(upgrade.status, 405);
  assert.equal(upgrade.headers.get("allow"), "WS, OPTIONS");
  const listed = app.routes().map(({ method, path, websocket }) => ({ method, path, websocket }));
  assert.deepEqual(listed, [
    { method: "WS", path: "/x", websocket: false },
    { method: "WS", path: "/y", websocket: true },
  ]);
});

test("logger() reports the status sent: a 304 from etag(), after the transforms", async () => {
  const entries: LogEntry[] = [];
  const app = createApp();
  app.use(logger({ sink: (entry) => entries.push(entry) }));
  app.use(etag());
  app.get("/doc", (ctx) => {
    ctx.response.write("a document");
  });
  const first = await app.request("/doc");
  const tag = first.headers.get("etag")!;
  const again = await app.request("/doc", { headers: { "if-none-match": tag } });
  assert.equal(again.status, 304);
  assert.deepEqual(
    entries.map((entry) => entry.status),
    [200, 304],
  );
});

test("a topic message a local socket refuses is reported as such, not as a backplane failure", () => {
  const reports: string[] = [];
  const hub = new TopicHub(undefined, { error: (message) => reports.push(message), info: () => {} });
  hub.subscribe(
    {
      send() {
        throw new Error("Cannot perform I/O on behalf of a different request");
      },
    },
    "room",
  );
  hub.publish("room", "hi");
  assert.deepEqual(reports, [
    "[portico] a topic message could not be delivered to a subscriber of this instance",
  ]);
});

test("an onError handler that writes ctx.response and returns nothing answers with what it wrote", async () => {
  const app = createApp({ logger: { error: () => {} } });
  app.onError((error, ctx) => {
    ctx.response.status = 503;
    ctx.response.headers.set("retry-after", "5");
    ctx.response.write(`sorry: ${(error as Error).message}`);
  });
  app.get("/fails", (ctx) => {
    ctx.response.write("half a page");
    throw new Error("database down");
  });
  const quietApp = createApp({ logger: { error: () => {} } });
  // Writes nothing and returns nothing: the default rendering answers.
  quietApp.onError(() => {});
  quietApp.get("/quiet/x", () => {
    throw new Error("nope");
  });
  const failed = await app.request("/fails");
  assert.equal(failed.status, 503);
  assert.equal(failed.headers.get("retry-after"), "5");
  assert.equal(await failed.text(), "sorry: database down");
  const quiet = await quietApp.request("/quiet/x");
  assert.equal(quiet.status, 500);
  assert.match(await quiet.text(), /500 Internal Server Error/);
});

test("csrf() refuses a cross-site websocket handshake, with the same allow-list", async () => {
  const app = createApp();
  app.use(csrf({ trustedOrigins: ["https://admin.example"] }));
  app.ws("/live", (socket) => socket.close());
  const handshake = (headers: Record<string, string>) =>
    app.request("http://app.example/live", {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        ...headers,
      },
    });
  assert.equal((await handshake({ origin: "https://evil.example" })).status, 403);
  assert.equal(
    (await handshake({ "sec-fetch-site": "cross-site", origin: "https://evil.example" })).status,
    403,
  );
  // Past csrf(): app.request() has no socket to upgrade, so the route answers 501.
  assert.equal((await handshake({ origin: "https://admin.example" })).status, 501);
  assert.equal((await handshake({ origin: "http://app.example" })).status, 501);
  assert.equal((await handshake({})).status, 501);
});

test("a timed-out handler's headers (its Set-Cookie) do not reach the 503; the middleware's before it do", async () => {
  const app = createApp();
  app.use(async (ctx, next) => {
    ctx.response.headers.set("x-frame-options", "DENY");
    await next();
  });
  app.use(timeout(20));
  app.get("/slow", async (ctx) => {
    ctx.response.headers.append("set-cookie", "session=stolen");
    ctx.response.headers.set("x-handler", "yes");
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
  const response = await app.request("/slow");
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("set-cookie"), null);
  assert.equal(response.headers.get("x-handler"), null);
  assert.equal(response.headers.get("x-frame-options"), "DENY");
});

test("a cast failure quotes the client's text cut to 64 characters, escaped in the HTML page", async () => {
  const app = createApp();
  app.get("/n/:id", defineEndpoint({ params: { path: { id: t.int32() } }, call: () => {} }));
  const long = `%3Cscript%3Ealert(1)%3C%2Fscript%3E${"x".repeat(100)}`;
  const page = await (await app.request(`/n/${long}`, { headers: { accept: "text/html" } })).text();
  assert.match(
    page,
    /cannot be cast from &quot;&lt;script&gt;alert\(1\)&lt;\/script&gt;x{39}…&quot; to Int32/,
  );
  assert.doesNotMatch(page, /<script>alert/);
  const json = (await (
    await app.request(`/n/${long}`, { headers: { accept: "application/json" } })
  ).json()) as { error: { message: string } };
  assert.equal(
    json.error.message,
    `Path parameter "id" cannot be cast from "<script>alert(1)</script>${"x".repeat(39)}…" to Int32`,
  );
});

test("a namespace guard written with r.use() covers blocks and websockets; before() ones are said not to", async () => {
  const warnings: string[] = [];
  const app = createApp({ logger: { error: () => {}, warn: (message) => warnings.push(message) } });
  app.on("/api", (r) => {
    r.use((ctx, next) =>
      ctx.request.headers.get("authorization") === "ok" ? next() : new Response(null, { status: 401 }),
    );
    r.get("/block", (ctx) => {
      ctx.response.write("open?");
    });
    r.ws("/live", (socket) => socket.close());
  });
  app.on("/old", (r) => {
    r.before((ep) => {
      if (ep.context.request.headers.get("authorization") !== "ok") throw new Error("no");
    });
    r.get("/block", (ctx) => {
      ctx.response.write("open");
    });
  });
  assert.equal((await app.request("/api/block")).status, 401);
  const upgrade = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-version": "13" };
  assert.equal((await app.request("/api/live", { headers: upgrade })).status, 401);
  assert.equal((await app.request("/api/block", { headers: { authorization: "ok" } })).status, 200);
  assert.deepEqual(warnings, []);
  await app.request("/old/block");
  await app.request("/old/block");
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /GET \/old\/block is not an endpoint: its namespace's before\(\) callbacks do not run/,
  );
});

test("a subscriber's topics are its own record: leaving drops exactly them", () => {
  const hub = new TopicHub(undefined, { error: () => {}, info: () => {} });
  const others = Array.from({ length: 50 }, () => ({ send() {} }));
  for (const [i, other] of others.entries()) hub.subscribe(other, `topic-${i}`);
  const socket = {
    got: [] as unknown[],
    send(message: unknown) {
      this.got.push(message);
    },
  };
  hub.subscribe(socket, "topic-3");
  hub.subscribe(socket, "mine");
  hub.unsubscribe(socket, "topic-3");
  assert.deepEqual(hub.topicsOf(socket), ["mine"]);
  hub.leave(socket);
  assert.deepEqual(hub.topicsOf(socket), []);
  hub.publish("mine", "after");
  hub.publish("topic-3", "others");
  assert.deepEqual(socket.got, []);
  assert.deepEqual(hub.topicsOf(others[3]!), ["topic-3"]);
});

test("an optional peer that is not installed is named, with its install command", async () => {
  const missing = "portico-no-such-peer";
  await assert.rejects(
    optionalPeer(missing, "portico/pubsub/redis", () => import(missing)),
    new Error(
      `portico/pubsub/redis needs the package "${missing}" (an optional peer dependency of portico): npm install ${missing}`,
    ),
  );
  // Any other failure of the module passes through as it is.
  await assert.rejects(
    optionalPeer("redis", "portico/pubsub/redis", () => Promise.reject(new TypeError("broken inside"))),
    /broken inside/,
  );
});

test("docsPage() and the HTML error page carry the request's CSP nonce; the CDN script its integrity", async () => {
  const app = createApp();
  app.use(secureHeaders({ contentSecurityPolicy: { scriptSrc: [NONCE], styleSrc: [NONCE] } }));
  app.get("/docs", docsPage({ specUrl: "/openapi.json" }));
  app.get("/own-docs", docsPage({ specUrl: "/openapi.json", scriptUrl: "/assets/scalar.js" }));
  const nonceOf = (response: Response): string =>
    /'nonce-([\w-]+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "none";
  const docs = await app.request("/docs");
  const page = await docs.text();
  const nonce = nonceOf(docs);
  assert.equal([...page.matchAll(new RegExp(`<script[^>]* nonce="${nonce}"`, "g"))].length, 2, page);
  assert.match(
    page,
    /src="https:\/\/cdn\.jsdelivr\.net\/npm\/@scalar\/api-reference@[\d.]+\/dist\/browser\/standalone\.js" integrity="sha384-[\w+/=]+" crossorigin="anonymous"/,
  );
  assert.match(
    await (await app.request("/own-docs")).text(),
    /<script nonce="[\w-]+" src="\/assets\/scalar\.js"><\/script>/,
  );
  const missing = await app.request("/nowhere", { headers: { accept: "text/html" } });
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), new RegExp(`<style nonce="${nonceOf(missing)}">`));
});

test("app.subscribe follows a topic outside websockets, until its unsubscribe", () => {
  const app = createApp({ logger: { error: () => {} } });
  const got: unknown[] = [];
  const stop = app.subscribe("news", (message) => got.push(message));
  app.subscribe("news", () => {
    throw new Error("a failing listener stops no other");
  });
  app.publish("news", "one");
  app.publish("other", "not mine");
  stop();
  stop();
  app.publish("news", "two");
  assert.deepEqual(got, ["one"]);
});
