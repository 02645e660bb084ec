import assert from "node:assert/strict";
import { createRouter } from "../../../src/mod.ts";
import { Echo, expectJson, expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

/** Namespaces and mounted routers, with their own middleware. */
export const namespaces: Topic = {
  name: "Namespaces and mounted routers, with their own middleware",
  routes(app) {
    app.on("/ns", (r) => {
      r.use(async (ctx, next) => {
        ctx.response.headers.set("x-ns", "outer");
        await next();
      });
      r.get("/", (ctx) => {
        ctx.response.write("ns root");
      });
      r.on("/inner", (r) => {
        r.use((ctx, next) => {
          if (ctx.request.query === "deny=1") return new Response("denied", { status: 403 });
          return next();
        });
        r.get("/:x", (ctx) => Echo({ route: "inner", ...ctx.request.pathParams }));
      });
    });
    app.mount(
      "/admin",
      createRouter((r) => {
        r.use(async (ctx, next) => {
          ctx.response.headers.set("x-admin", "1");
          await next();
        });
        r.get("/", (ctx) => {
          ctx.response.write("admin home");
        });
        r.get("/users/:id", (ctx) => Echo({ route: "admin-user", ...ctx.request.pathParams }));
      }),
    );
  },
  cases: [
    {
      name: "namespaces nest prefixes and their middleware",
      async run(c) {
        const root = await expectText(c, "/ns", 200, "ns root");
        assert.equal(root.headers.get("x-ns"), "outer");
        const inner = await expectJson(c, "/ns/inner/7", 200, { route: "inner", x: "7" });
        assert.equal(inner.headers.get("x-ns"), "outer");
      },
    },
    {
      name: "middleware may answer with a Response; headers set before are kept",
      async run(c) {
        const res = await expectText(c, "/ns/inner/7?deny=1", 403, "denied");
        assert.equal(res.headers.get("x-ns"), "outer");
      },
    },
    {
      name: "a mounted router keeps its routes and middleware under the prefix",
      async run(c) {
        const home = await expectText(c, "/admin", 200, "admin home");
        assert.equal(home.headers.get("x-admin"), "1");
        await expectJson(c, "/admin/users/3", 200, { route: "admin-user", id: "3" });
        assert.equal((await c.fetch("/ns")).headers.get("x-admin"), null);
      },
    },
  ],
};
