import assert from "node:assert/strict";
import { createRouter, defineEndpoint, defineError, t } from "../../../src/mod.ts";
import { Echo, expectJson, expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

const Refused = defineError("Refused", 403, { message: "Not for you" });
const Trace = defineEndpoint({
  params: { path: { n: t.int32() } },
  errors: { Refused },
  before: [(ep) => ep.header("x-order", `${ep.context.response.headers.get("x-order")},own-before`)],
  after: [(ep) => ep.header("x-order", `${ep.context.response.headers.get("x-order")},own-after`)],
  call(ep) {
    if (ep.params.path.n === 0) throw new Error("zero");
    if (ep.params.path.n === 403) throw new ep.errors.Refused();
    ep.header("x-order", `${ep.context.response.headers.get("x-order")},call`);
    ep.context.response.write(`n=${ep.params.path.n}`);
  },
});

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
    // Hooks per namespace: the nearest onError and notFound, before/after around every endpoint.
    app.on("/hooks", (r) => {
      r.onError((error) =>
        error instanceof Error && error.message === "zero"
          ? new Response("outer caught zero", { status: 500 })
          : undefined,
      );
      r.notFound((ctx) => {
        ctx.response.write(`no ${ctx.request.path} under /hooks`);
      });
      r.before((ep) => ep.header("x-order", "outer-before"));
      r.after((ep) => ep.header("x-order", `${ep.context.response.headers.get("x-order")},outer-after`));
      r.on("/inner", (r) => {
        r.onError((error) =>
          error instanceof Refused ? new Response("inner refused", { status: 403 }) : undefined,
        );
        r.get("/:n", Trace);
        r.before((ep) => ep.header("x-order", `${ep.context.response.headers.get("x-order")},inner-before`));
        r.after((ep) => ep.header("x-order", `${ep.context.response.headers.get("x-order")},inner-after`));
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
      name: "namespace hooks: before/after outermost first around the endpoint's own; nearest onError; notFound under the prefix",
      async run(c) {
        const ok = await expectText(c, "/hooks/inner/5", 200, "n=5");
        assert.equal(
          ok.headers.get("x-order"),
          "outer-before,inner-before,own-before,call,outer-after,inner-after,own-after",
        );
        await expectText(c, "/hooks/inner/403", 403, "inner refused");
        await expectText(c, "/hooks/inner/0", 500, "outer caught zero");
        await expectText(c, "/hooks/nothing/here", 404, "no /hooks/nothing/here under /hooks");
        await expectText(c, "/hooks", 404, "no /hooks under /hooks");
        const wrongMethod = await c.fetch("/hooks/inner/5", { method: "POST" });
        assert.equal(wrongMethod.status, 405, "a path routed for other methods keeps its 405");
        assert.equal((await c.fetch("/hooksmith")).status, 404);
        assert.notEqual(await (await c.fetch("/hooksmith")).text(), "no /hooksmith under /hooks");
      },
    },
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
