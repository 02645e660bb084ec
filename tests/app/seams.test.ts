// Seams found from outside in 0.2, in-process (issue 21); the ones that need a real server or another
// runtime are in tests/conformance/topics/seams.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp } from "../../src/mod.ts";

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
