import assert from "node:assert/strict";
import type { Context } from "../../../src/mod.ts";
import { expectText, REQUEST_ID } from "../helpers.ts";
import type { Topic } from "../suite.ts";

/** Block routes: what they write, return or ignore. */
export const blocks: Topic = {
  name: "Block routes: what they write, return or ignore",
  routes(app) {
    app.get("/", (ctx) => {
      ctx.response.write("Hello World");
    });
    app.get("/empty", () => {});
    app.get("/ignored", (() => 42) as never); // refused by the types, ignored (and said) at run time
    app.get("/written", ((ctx: Context) => {
      ctx.response.write("a");
      ctx.response.write("b");
      return "ignored";
    }) as never);
    app.get("/raw", () => new Response("raw body", { status: 203, headers: { "x-raw": "1" } }));
  },
  cases: [
    {
      name: "a block route writes its body as text with a request id",
      async run(c) {
        const res = await expectText(c, "/", 200, "Hello World");
        assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
        assert.match(res.headers.get("x-request-id") ?? "", REQUEST_ID);
      },
    },
    {
      name: "an empty block answers 200 with an empty body; other return values are ignored",
      async run(c) {
        await expectText(c, "/empty", 200, "");
        await expectText(c, "/ignored", 200, "");
      },
    },
    {
      name: "write() appends to the body",
      async run(c) {
        await expectText(c, "/written", 200, "ab");
      },
    },
    {
      name: "a returned Response is sent as is, with the request id added",
      async run(c) {
        const res = await expectText(c, "/raw", 203, "raw body");
        assert.equal(res.headers.get("x-raw"), "1");
        assert.match(res.headers.get("x-request-id") ?? "", REQUEST_ID);
      },
    },
    {
      name: "every request gets a fresh id (a per-process prefix and a counter); an incoming id is ignored by default",
      async run(c) {
        const a = await c.fetch("/", { headers: { "x-request-id": "abc" } });
        const b = await c.fetch("/");
        const idA = a.headers.get("x-request-id") ?? "";
        assert.match(idA, REQUEST_ID);
        assert.notEqual(idA, b.headers.get("x-request-id"));
      },
    },
  ],
};
