// createApp({ errors: { format } }): what an error is sent as when the client's Accept names none of the
// formats; a client that asks for one gets it either way. The OpenAPI document lists every format.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp, defineEndpoint } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { deref } from "../openapi/deref.ts";

const Find = defineEndpoint({
  errors: { NotFound: { code: 404, message: "No such thing" } },
  call: (ep) => {
    throw new ep.errors.NotFound();
  },
});
const appWith = (format?: "text" | "json") => {
  const app = createApp(format === undefined ? {} : { errors: { format } });
  app.route("GET", "/thing", Find, { name: "find" });
  return app;
};
const answer = async (app: ReturnType<typeof appWith>, accept?: string) => {
  const response = await app.request("/thing", accept === undefined ? {} : { headers: { accept } });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
};
const envelope = { error: { name: "Not Found", message: "No such thing", code: 404, payload: null } };

test('errors.format "json": no Accept, */* or equal ranks get the JSON envelope', async () => {
  const app = appWith("json");
  for (const accept of [undefined, "*/*", "text/plain, application/json", "image/png"]) {
    const got = await answer(app, accept);
    assert.equal(got.status, 404);
    assert.equal(got.type, "application/json", `Accept: ${accept}`);
    assert.deepEqual(JSON.parse(got.body), envelope);
  }
});

test('errors.format "json": a client that asks for text or HTML gets it', async () => {
  const app = appWith("json");
  assert.deepEqual(await answer(app, "text/plain"), {
    status: 404,
    type: "text/plain; charset=utf-8",
    body: "404 Not Found — No such thing",
  });
  assert.equal((await answer(app, "text/html")).type, "text/html; charset=utf-8");
  assert.equal((await answer(app, "application/json;q=0.5, text/plain")).type, "text/plain; charset=utf-8");
});

test("the default stays text; JSON when asked for", async () => {
  for (const app of [appWith(), appWith("text")]) {
    assert.equal((await answer(app)).type, "text/plain; charset=utf-8");
    assert.equal((await answer(app, "*/*")).type, "text/plain; charset=utf-8");
    assert.deepEqual(JSON.parse((await answer(app, "application/json")).body), envelope);
  }
});

test("errors.format is checked when the app is made", () => {
  assert.throws(
    () => createApp({ errors: { format: "xml" as never } }),
    /errors\.format must be "text", "json" or "problem"/,
  );
});

test("the document lists each error in every format it can be sent in", () => {
  const doc = deref(openapi(appWith(), { info: { title: "t", version: "1" } }));
  const notFound = (doc.paths["/thing"]!.get as { responses: Record<string, { content: object }> }).responses[
    "404"
  ]!;
  assert.deepEqual(Object.keys(notFound.content).sort(), [
    "application/json",
    "application/problem+json",
    "text/html",
    "text/plain",
  ]);
  assert.deepEqual((notFound.content as Record<string, { schema: object }>)["text/plain"]!.schema, {
    type: "string",
  });
});
