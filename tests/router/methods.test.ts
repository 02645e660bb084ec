// Methods at registration: registered ones by name (any case), the app's own through customMethod(), and
// a typo refused where it is written, naming the method it is probably a typo of.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, customMethod, defineEndpoint, defineRoutes } from "../../src/mod.ts";

const Echo = defineEndpoint({ call: (ep) => new Response(ep.request.method) });

test("a method the registry does not know is a setup error naming the likely one; customMethod() spells one on purpose", async () => {
  const app = createApp();
  assert.throws(
    () => app.route("GTE" as never, "/x", () => {}),
    /"GTE" is not a registered HTTP method \(a typo of GET\?\); for a method of your own, write customMethod\("GTE"\)/,
  );
  assert.throws(
    () => defineRoutes({ ping: ["PSOT" as never, "/ping", Echo] }),
    /defineRoutes: route "ping": "PSOT" is not a registered HTTP method \(a typo of POST\?\)/,
  );
  assert.throws(() => customMethod("NOT A TOKEN"), /an HTTP token/);
  app.route(customMethod("PURGE"), "/cache", Echo);
  app.route("propfind" as never, "/dav", Echo);
  app.mount(
    "/api",
    defineRoutes({ report: ["REPORT", "/r", Echo], purge: [customMethod("PURGE"), "/p", Echo] }),
  );
  for (const [method, path] of [
    ["PURGE", "/cache"],
    ["PROPFIND", "/dav"],
    ["REPORT", "/api/r"],
    ["PURGE", "/api/p"],
  ] as const) {
    const res = await app.request(path, { method });
    assert.deepEqual([res.status, await res.text()], [200, method], `${method} ${path}`);
  }
});
