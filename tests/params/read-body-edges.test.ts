// Reading a body at its edges (found by the mutation run, bench/MUTATION.md): a byte order mark, a
// request without a body, a declared length that is not the body's, the exact limit, and bodyLimit()
// refusing by the declared length before the handler runs.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { bodyLimit } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, readBody, t } from "../../src/mod.ts";

describe("reading a body", () => {
  test("a UTF-8 byte order mark before a JSON body is dropped, not parsed", async () => {
    const app = createApp();
    app.post(
      "/",
      defineEndpoint({
        params: { json: t.body({ a: v.string() }, { require: true }) },
        call: (ep) => Response.json(ep.params.json),
      }),
    );
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":"x"}')]);
    const res = await app.request("/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { a: "x" });
  });

  test("readBody: no body is zero bytes, and the body is read in place (no copy is kept)", async () => {
    const app = createApp();
    app.all("/", async (ctx) => {
      const bytes = await readBody(ctx);
      ctx.response.write(`${bytes.byteLength} ${ctx.request.raw.bodyUsed}`);
    });
    assert.equal(await (await app.request("/")).text(), "0 false");
    assert.equal(await (await app.request("/", { method: "POST", body: "abc" })).text(), "3 true");
  });

  test("a declared length smaller than the body: the body is still held to the limit", async () => {
    const app = createApp({ limits: { bodySize: 10 } });
    app.post("/", async (ctx) => ctx.response.write(`${(await readBody(ctx)).byteLength}`));
    const send = (body: string) =>
      app.request("/", { method: "POST", headers: { "content-length": "5" }, body });
    const exact = await send("x".repeat(10));
    assert.deepEqual([exact.status, await exact.text()], [200, "10"]);
    assert.equal((await send("x".repeat(11))).status, 413);
  });

  test("bodyLimit() refuses a declared length over it before the handler runs", async () => {
    const app = createApp();
    let ran = 0;
    app.on("/", (r) => {
      r.use(bodyLimit(10));
      r.post("/", () => {
        ran++;
        return new Response("unread");
      });
    });
    const send = (length: string, body: string) =>
      app.request("/", { method: "POST", headers: { "content-length": length }, body });
    const over = await send("11", "x".repeat(11));
    assert.equal(over.status, 413);
    assert.equal(over.headers.get("connection"), "close");
    assert.match(await over.text(), /exceeds the limit of 10 bytes/);
    assert.equal(ran, 0);
    const within = await send("10", "x".repeat(10));
    assert.deepEqual([within.status, await within.text(), ran], [200, "unread", 1]);
  });
});
