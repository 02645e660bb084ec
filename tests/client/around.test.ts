// Errors declared by middleware outside the routes object (`app.use`, a namespace's `use`) reach the
// typed client by name in both modes — from the routes object with `use`, and from the document — so
// the two agree, and the error union lists them when told the middleware's type.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { createClient } from "../../src/client/mod.ts";
import { csrf, declaring } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineError, defineRoutes, defineView } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

const Locked = defineError("Locked", 423, { message: "Read-only", payload: { until: v.string() } });
const readOnly = declaring(
  (ctx, next) => {
    if (ctx.request.header("x-maintenance") === "1") throw new Locked({ until: "tomorrow" });
    return next();
  },
  { errors: { Locked } },
);
const guard = csrf();
const around = [guard, readOnly] as const;

const Note = defineView({ schema: v.object({ text: v.string() }), json: (text: string) => ({ text }) });
const api = defineRoutes({
  addNote: [
    "POST",
    "/notes",
    defineEndpoint({
      params: { json: { text: v.string() } },
      view: Note,
      call: (ep) => Note(ep.params.json?.text ?? ""),
    }),
  ],
});
const app = createApp();
app.use(guard);
app.on("/api", (r) => {
  r.use(readOnly);
  r.mount("/", api);
});
const document = openapi(app, { info: { title: "t", version: "1" } });

const clients = {
  routes: createClient({ baseUrl: "http://app/api", routes: api, use: around, fetch: app.fetch }),
  document: createClient<typeof api, typeof around>({
    baseUrl: "http://app/api",
    spec: document,
    fetch: app.fetch,
  }),
};

for (const [mode, client] of Object.entries(clients)) {
  test(`the app's and a namespace's middleware errors come back by name (${mode})`, async () => {
    const locked = await client.addNote({ json: { text: "a" }, headers: { "x-maintenance": "1" } });
    assert.deepEqual(locked, {
      ok: false,
      status: 423,
      error: { name: "Locked", code: 423, message: "Read-only", payload: { until: "tomorrow" } },
    });
    const crossSite = await client.addNote({
      json: { text: "a" },
      headers: { "sec-fetch-site": "cross-site" },
    });
    assert.equal(crossSite.ok, false);
    if (!crossSite.ok) {
      const name: "CrossSiteRequestRefused" | "Locked" | "JSONBodyError" | "PayloadTooLarge" | "HttpError" =
        crossSite.error.name;
      assert.equal(name, "CrossSiteRequestRefused");
    }
    // Typed: the union lists the middleware's errors, with their payloads.
    if (!locked.ok && locked.error.name === "Locked") locked.error.payload.until satisfies string;
    const ok = await client.addNote({ json: { text: "a" } });
    assert.deepEqual(ok, { ok: true, status: 200, data: { text: "a" } });
  });
}

test("the app's body limit (413) comes back by name in both modes, as the document says", async () => {
  const big = { text: "x".repeat(1024 * 1024 + 1) };
  for (const client of Object.values(clients)) {
    const refused = await client.addNote({ json: big });
    assert.equal(refused.ok, false);
    if (!refused.ok) assert.equal(refused.error.name, "PayloadTooLarge");
  }
});

test("without them, the routes mode calls an outer middleware's refusal HttpError, as the type says", async () => {
  const bare = createClient({ baseUrl: "http://app/api", routes: api, fetch: app.fetch });
  const locked = await bare.addNote({ json: { text: "a" }, headers: { "x-maintenance": "1" } });
  assert.equal(locked.ok, false);
  if (!locked.ok) assert.equal(locked.error.name, "HttpError");
});
