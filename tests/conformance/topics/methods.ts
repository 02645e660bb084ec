import assert from "node:assert/strict";
import { Echo, expectText, REQUEST_ID } from "../helpers.ts";
import type { Topic } from "../suite.ts";

/** Methods: several per route, all(), HEAD, OPTIONS, 405 with Allow. */
export const methods: Topic = {
  name: "Methods: several per route, all(), HEAD, OPTIONS, 405 with Allow",
  routes(app) {
    app.route(["GET", "POST"], "/multi", (ctx) => {
      ctx.response.write(ctx.request.method);
    });
    app.all("/any", (ctx) => {
      ctx.response.write(`any ${ctx.request.method}`);
    });
    app.put("/items/:id", (ctx) => {
      ctx.response.write(`put ${ctx.request.pathParams.id}`);
    });
    app.delete("/items/:id", (ctx) => {
      ctx.response.status = 204;
    });
    app.get("/get-only/:id", (ctx) => Echo(ctx.request.pathParams));
    app.head("/probe", (ctx) => {
      ctx.response.headers.set("x-probe", "head");
    });
    app.get("/probe", (ctx) => {
      ctx.response.write("probe body");
    });
    app.options("/custom-options", (ctx) => {
      ctx.response.status = 200;
      ctx.response.write("custom");
    });
  },
  cases: [
    {
      name: "route() serves several methods; other verbs get 405 with Allow",
      async run(c) {
        await expectText(c, "/multi", 200, "GET");
        await expectText(c, "/multi", 200, "POST", { method: "POST" });
        const res = await expectText(c, "/multi", 405, "405 Method Not Allowed", { method: "PUT" });
        assert.equal(res.headers.get("allow"), "GET, HEAD, POST, OPTIONS");
      },
    },
    {
      name: "all() serves every method",
      async run(c) {
        await expectText(c, "/any", 200, "any PATCH", { method: "PATCH" });
        await expectText(c, "/any", 200, "any DELETE", { method: "DELETE" });
      },
    },
    {
      name: "put and delete routes; GET on them is a 405",
      async run(c) {
        await expectText(c, "/items/5", 200, "put 5", { method: "PUT" });
        await expectText(c, "/items/5", 204, "", { method: "DELETE" });
        const res = await expectText(c, "/items/5", 405, "405 Method Not Allowed");
        assert.equal(res.headers.get("allow"), "PUT, DELETE, OPTIONS");
      },
    },
    {
      name: "HEAD is answered from GET without a body",
      async run(c) {
        const res = await expectText(c, "/get-only/1", 200, "", { method: "HEAD" });
        assert.equal(res.headers.get("content-type"), "application/json");
        assert.match(res.headers.get("x-request-id") ?? "", REQUEST_ID);
      },
    },
    {
      name: "a HEAD route wins over GET",
      async run(c) {
        const res = await expectText(c, "/probe", 200, "", { method: "HEAD" });
        assert.equal(res.headers.get("x-probe"), "head");
        await expectText(c, "/probe", 200, "probe body");
      },
    },
    {
      name: "OPTIONS without a route answers 204 with Allow; an OPTIONS route wins",
      async run(c) {
        const res = await expectText(c, "/get-only/1", 204, "", { method: "OPTIONS" });
        assert.equal(res.headers.get("allow"), "GET, HEAD, OPTIONS");
        await expectText(c, "/custom-options", 200, "custom", { method: "OPTIONS" });
        await expectText(c, "/nowhere", 404, "404 Not Found", { method: "OPTIONS" });
      },
    },
  ],
};
