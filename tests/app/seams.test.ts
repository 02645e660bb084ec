// Seams found from outside in 0.2, in-process (issue 21); the ones that need a real server or another
// runtime are in tests/conformance/topics/seams.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { etag, type LogEntry, logger } from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";
import { TopicHub } from "../../src/pubsub/hub.ts";

test("route('WS', …) is an ordinary HTTP route; websocket routes come only from ws()", async () => {
  const app = createApp();
  app.route("WS", "/x", (ctx) => {
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
  const hub = new TopicHub(undefined, (_error, where) => reports.push(where));
  hub.subscribe(
    {
      send() {
        throw new Error("Cannot perform I/O on behalf of a different request");
      },
    },
    "room",
  );
  hub.publish("room", "hi");
  assert.deepEqual(reports, ["local"]);
});
