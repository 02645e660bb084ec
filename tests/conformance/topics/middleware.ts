import assert from "node:assert/strict";
import { expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

/** App middleware: around every request, errors included. */
export const middleware: Topic = {
  name: "App middleware: around every request, errors included",
  routes(app) {
    app.use(async (ctx, next) => {
      ctx.response.headers.set("x-app-middleware", "1");
      await next();
      if (ctx.error !== undefined) ctx.response.headers.set("x-saw-error", "1");
    });
    app.get("/mw", (ctx) => {
      ctx.response.write("mw");
    });
    app.get("/mw/boom", () => {
      throw new Error("secret detail");
    });
  },
  cases: [
    {
      name: "app middleware runs around every request, 404s included",
      async run(c) {
        assert.equal((await c.fetch("/mw")).headers.get("x-app-middleware"), "1");
        assert.equal((await c.fetch("/nowhere")).headers.get("x-app-middleware"), "1");
      },
    },
    {
      name: "middleware sees the error the handler threw, after next()",
      async run(c) {
        const res = await expectText(c, "/mw/boom", 500, "500 Internal Server Error");
        assert.equal(res.headers.get("x-saw-error"), "1");
        assert.equal(res.headers.get("x-app-middleware"), "1");
      },
    },
  ],
};
