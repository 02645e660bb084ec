// The OpenAPI document says only what is true, and stays valid whatever routes an app has: declared path
// schemas without `type: string` glued on, `+json` renderers not given the `json` renderer's shape,
// custom methods kept in an extension, paths that differ only by parameter names documented once, and a
// route that cannot be documented is said, not silently replaced.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import * as v from "valibot";
import { csrf, declaring, etag } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineError, defineView, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { deref } from "./deref.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;
const info = { title: "t", version: "1" };
const valid = async (doc: object) => {
  const result = await new Validator().validate(structuredClone(doc) as never);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
};

test("a declared path schema is the parameter's own: an int64 has no `type: string` glued on, a picklist keeps its own", async () => {
  const app = createApp();
  app.get("/a/:id", defineEndpoint({ params: { path: { id: t.int64() } }, call: () => {} }));
  app.get("/b/:kind", defineEndpoint({ params: { path: { kind: v.picklist(["x", "y"]) } }, call: () => {} }));
  app.get("/c/:slug(\\w+)", () => {});
  const doc: Json = deref(openapi(app, { info }));
  const schemaOf = (path: string) => doc.paths[path].get.parameters[0].schema;
  assert.equal(schemaOf("/a/{id}").type, undefined);
  assert.equal(schemaOf("/a/{id}").format, "int64");
  assert.deepEqual(schemaOf("/b/{kind}"), { type: "string", enum: ["x", "y"] });
  assert.deepEqual(schemaOf("/c/{slug}"), { type: "string", pattern: "^(?:\\w+)$" });
  await valid(doc);
});

test("a +json renderer is not documented with the json renderer's schema", async () => {
  const Post = defineView({
    schema: v.object({ title: v.string() }),
    json: (post: { title: string }) => post,
    "application/vnd.post+json": (post) => ({ data: post }),
  });
  const app = createApp();
  app.get("/post", defineEndpoint({ view: Post, call: () => Post({ title: "x" }) }));
  const content = (deref(openapi(app, { info })) as Json).paths["/post"].get.responses["200"].content;
  assert.equal(content["application/json"].schema.type, "object");
  assert.deepEqual(content["application/vnd.post+json"].schema, {});
});

test("routes with methods OpenAPI 3.1 has no place for stay, under x-additionalOperations; the document stays valid", async () => {
  const app = createApp();
  app.route("PROPFIND", "/files/:name", () => {}, { name: "propfind" });
  app.route("QUERY", "/search", () => {});
  app.get("/files/:name", () => {});
  const doc: Json = deref(openapi(app, { info }));
  assert.deepEqual(Object.keys(doc.paths["/files/{name}"]).sort(), ["get", "x-additionalOperations"]);
  assert.equal(doc.paths["/files/{name}"]["x-additionalOperations"].PROPFIND.operationId, "propfind");
  assert.ok(doc.paths["/search"]["x-additionalOperations"].QUERY.responses);
  await valid(doc);
});

test("paths that differ only by parameter names are one path; each operation's parameters match it", async () => {
  const warnings: string[] = [];
  const app = createApp();
  app.get("/same/:x", defineEndpoint({ params: { path: { x: v.string() } }, call: () => {} }));
  app.delete("/same/:y(\\d+)", defineEndpoint({ params: { path: { y: t.int32() } }, call: () => {} }));
  const doc: Json = deref(openapi(app, { info, onWarning: (message) => warnings.push(message) }));
  assert.deepEqual(Object.keys(doc.paths), ["/same/{x}"]);
  assert.equal(doc.paths["/same/{x}"].get.parameters[0].schema.type, "string");
  const removed = doc.paths["/same/{x}"].delete.parameters[0];
  assert.equal(removed.name, "x");
  assert.equal(removed.schema.type, "integer");
  assert.equal(removed.schema.pattern, "^(?:\\d+)$");
  assert.deepEqual(warnings, []);
  await valid(doc);
});

test("a route whose path and method another route already documents is left out with a warning, never silently", async () => {
  const warnings: string[] = [];
  const app = createApp();
  app.route("GET", "/same/:x", () => {}, { name: "first" });
  app.route("GET", "/same/:y(\\d+)", () => {}, { name: "second" });
  const doc: Json = deref(openapi(app, { info, onWarning: (message) => warnings.push(message) }));
  assert.equal(doc.paths["/same/{x}"].get.operationId, "first");
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /GET \/same\/:y\(\\d\+\) is left out: GET \/same\/\{x\} already documents another route/,
  );
  await valid(doc);
});

test("middleware errors are documented only on the methods that can meet them: csrf()'s 403 not on GET, etag()'s 412 only on GET and HEAD", async () => {
  const app = createApp();
  app.use(csrf());
  app.use(etag());
  app.get("/thing", () => {});
  app.post("/thing", () => {});
  app.route("PROPFIND", "/thing", () => {});
  const item: Json = deref(openapi(app, { info })).paths["/thing"];
  const codes = (operation: Json) => Object.keys(operation.responses).sort();
  assert.deepEqual(codes(item.get), ["200", "304", "412"]);
  assert.deepEqual(codes(item.post), ["200", "403"]);
  // etag()'s header and its 304, on GET only.
  assert.ok(item.get.responses["200"].headers.ETag);
  assert.ok(item.get.responses["304"].headers.ETag);
  assert.equal(item.post.responses["200"].headers.ETag, undefined);
  assert.deepEqual(codes(item["x-additionalOperations"].PROPFIND), ["200", "403"]);
  // And at run time, the same: a cross-site GET passes, a cross-site POST is refused.
  const crossSite = { "sec-fetch-site": "cross-site" };
  assert.equal((await app.request("/thing", { headers: crossSite })).status, 200);
  assert.equal((await app.request("/thing", { method: "POST", headers: crossSite })).status, 403);
  await valid(openapi(app, { info }));
});

test("a form's nested group is documented as deepObject (what the server reads), and a body route documents the app's 413", async () => {
  const app = createApp({ limits: { bodySize: 256 } });
  const CreatePost = defineEndpoint({
    params: { form: t.body({ post: t.group({ title: v.string(), body: v.string() }) }, { require: true }) },
    call: (ep) => Response.json(ep.params.form.post),
  });
  app.post("/posts", CreatePost);
  const operation: Json = (deref(openapi(app, { info })) as Json).paths["/posts"].post;
  for (const mediaType of ["application/x-www-form-urlencoded", "multipart/form-data"])
    assert.deepEqual(operation.requestBody.content[mediaType].encoding, {
      post: { style: "deepObject", explode: true },
    });
  // deepObject, exploded: `post[title]=…&post[body]=…`, which the endpoint reads.
  const sent = await app.request("/posts", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ "post[title]": "Hi", "post[body]": "There" }),
  });
  assert.deepEqual(await sent.json(), { title: "Hi", body: "There" });
  // Over the app's body limit: the 413 it documents.
  assert.equal(operation.responses["413"].description, "PayloadTooLarge");
  const big = await app.request("/posts", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: `post[title]=${"x".repeat(1000)}&post[body]=y`,
  });
  assert.equal(big.status, 413);
  assert.equal(((await big.json()) as Json).error.name, "Payload Too Large");
  await valid(openapi(app, { info }));
});

test("an app's own middleware declares its errors and their methods with declaring()", async () => {
  const Locked = defineError("Locked", 423, { message: "Read-only for maintenance" });
  const readOnly = declaring(
    (ctx, next) => {
      if (ctx.request.method !== "GET") throw new Locked();
      return next();
    },
    { errors: { Locked }, declaresFor: (method) => method !== "GET" && method !== "HEAD" },
  );
  const app = createApp();
  app.use(readOnly);
  app.get("/notes", () => {});
  app.post("/notes", () => {});
  const item: Json = (deref(openapi(app, { info })) as Json).paths["/notes"];
  assert.equal(item.get.responses["423"], undefined);
  assert.equal(item.post.responses["423"].description, "Locked");
  const refused = await app.request("/notes", { method: "POST", headers: { accept: "application/json" } });
  assert.equal(refused.status, 423);
  assert.equal(((await refused.json()) as Json).error.message, "Read-only for maintenance");
});
