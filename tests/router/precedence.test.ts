import assert from "node:assert/strict";
import { test } from "node:test";
import { createApp } from "../../src/mod.ts";

function echoApp(patterns: string[]) {
  const app = createApp();
  for (const pattern of patterns) {
    app.get(pattern, (ctx) => {
      ctx.response.write(`${pattern} ${JSON.stringify(ctx.request.pathParams)}`);
    });
  }
  return async (path: string) => {
    const res = await app.request(path);
    return res.status === 200 ? await res.text() : res.status;
  };
}

test("static segments win segment by segment, whatever the order of registration", async () => {
  const get = echoApp(["/:lang/docs", "/en/:page", "/en/docs/:x?"]);
  assert.equal(await get("/en/intro"), '/en/:page {"page":"intro"}');
  assert.equal(await get("/en/docs"), "/en/docs/:x? {}");
  assert.equal(await get("/fr/docs"), '/:lang/docs {"lang":"fr"}');
});

test("routes starting with a parameter are tried for every first segment, in order", async () => {
  const get = echoApp(["/files/:name", "/:any/special", "/files/:name/:rest*"]);
  assert.equal(await get("/files/special"), '/files/:name {"name":"special"}');
  assert.equal(await get("/other/special"), '/:any/special {"any":"other"}');
  assert.equal(await get("/files/a/b/c"), '/files/:name/:rest* {"name":"a","rest":"b/c"}');
});

test("non-ASCII and encoded static segments match the URL's spelling", async () => {
  const get = echoApp(["/café/:id", "/a b/:id", "/crème"]);
  assert.equal(await get("/caf%C3%A9/1"), '/café/:id {"id":"1"}');
  assert.equal(await get("/a%20b/2"), '/a b/:id {"id":"2"}');
  assert.equal(await get("/cr%C3%A8me"), "/crème {}");
});

test("matching is case-sensitive, like URLPattern", async () => {
  const get = echoApp(["/Users/:id", "/about"]);
  assert.equal(await get("/Users/1"), '/Users/:id {"id":"1"}');
  assert.equal(await get("/users/1"), 404);
  assert.equal(await get("/ABOUT"), 404);
});

test("a route on the root path and the root with a parameter", async () => {
  const get = echoApp(["/", "/:slug"]);
  assert.equal(await get("/"), "/ {}");
  assert.equal(await get("/hello"), '/:slug {"slug":"hello"}');
  assert.equal(await get("//"), "/ {}");
});
