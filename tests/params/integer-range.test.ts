// Integers a query, path, header or form carries are exact or refused: past 2^53 a number cannot hold
// the digits sent, so `9007199254740993` is a 400, never the rounded 9007199254740992.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { createApp, defineEndpoint, t } from "../../src/mod.ts";

const Echo = defineEndpoint({
  params: {
    query: { n: v.optional(v.pipe(v.number(), v.integer())), i: v.optional(t.int64()) },
    path: { id: v.pipe(v.number(), v.integer()) },
  },
  call: (ep) => Response.json({ n: ep.params.query.n, i: String(ep.params.query.i), id: ep.params.path.id }),
});

const app = createApp();
app.get("/items/:id", Echo);

test("integers past 2^53 are a 400 in a plain valibot integer; t.int64() keeps them exact", async () => {
  const ok = await app.request("/items/9007199254740991?n=-9007199254740991");
  assert.deepEqual(await ok.json(), { n: -9007199254740991, i: "undefined", id: 9007199254740991 });
  for (const url of [
    "/items/1?n=9007199254740993",
    "/items/1?n=9007199254740992",
    "/items/1?n=-9007199254740993",
    "/items/9007199254740993",
    "/items/1?n=1e21",
  ]) {
    const res = await app.request(url, { headers: { accept: "text/plain" } });
    assert.equal(res.status, 400, url);
    await res.arrayBuffer();
  }
  const wide = await app.request("/items/1?i=9007199254740993");
  assert.equal(((await wide.json()) as { i: string }).i, "9007199254740993", "int64 as a bigint, exact");
});
