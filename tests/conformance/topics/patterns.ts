import assert from "node:assert/strict";
import { Echo, expectJson, expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

/** Patterns: parameters, regexps, optionals, wildcards, precedence, decoding. */
export const patterns: Topic = {
  name: "Patterns: parameters, regexps, optionals, wildcards, precedence, decoding",
  routes(app) {
    app.get("/users/:id", (ctx) => Echo({ route: "user", ...ctx.request.pathParams }));
    // Registered after `/users/:id`, and still preferred: static segments beat parameters.
    app.get("/users/new", (ctx) => {
      ctx.response.write("new user form");
    });
    app.post("/users", (ctx) => {
      ctx.response.status = 201;
      ctx.response.write("created");
    });
    app.get("/users/:id/posts/:post", (ctx) => Echo(ctx.request.pathParams));
    app.get("/digits/:id(\\d+)", (ctx) => Echo({ route: "digits", ...ctx.request.pathParams }));
    app.get("/digits/:slug", (ctx) => Echo({ route: "slug", ...ctx.request.pathParams }));
    app.get("/lang/:lang?/docs", (ctx) => Echo({ route: "docs", ...ctx.request.pathParams }));
    app.get("/opt/:name?", (ctx) => Echo({ route: "opt", ...ctx.request.pathParams }));
    app.get("/files/*", (ctx) => Echo({ route: "files", ...ctx.request.pathParams }));
    app.get("/report.json", (ctx) => {
      ctx.response.write("report");
    });
    app.get("/first/:a", (ctx) => Echo({ route: "first", ...ctx.request.pathParams }));
    app.get("/first/:b(\\d+)", (ctx) => Echo({ route: "second", ...ctx.request.pathParams }));
  },
  cases: [
    {
      name: "a path parameter matches one segment",
      async run(c) {
        await expectJson(c, "/users/42", 200, { route: "user", id: "42" });
        await expectJson(c, "/users/1/posts/2", 200, { id: "1", post: "2" });
      },
    },
    {
      name: "a request with a trailing slash matches the route without one",
      async run(c) {
        await expectJson(c, "/users/42/", 200, { route: "user", id: "42" });
        await expectText(c, "/report.json/", 200, "report");
      },
    },
    {
      name: "a mandatory parameter does not match an empty segment",
      async run(c) {
        await expectText(c, "/first/", 404, "404 Not Found");
        // `/users/` is `/users`, which exists for POST only.
        const res = await expectText(c, "/users/", 405, "405 Method Not Allowed");
        assert.equal(res.headers.get("allow"), "POST, OPTIONS");
      },
    },
    {
      name: "static segments beat parameters, whatever the registration order",
      async run(c) {
        await expectText(c, "/users/new", 200, "new user form");
      },
    },
    {
      name: "otherwise the first registered route wins",
      async run(c) {
        await expectJson(c, "/first/7", 200, { route: "first", a: "7" });
      },
    },
    {
      name: "path parameters are percent-decoded once, after matching",
      async run(c) {
        await expectJson(c, "/users/a%2Fb", 200, { route: "user", id: "a/b" });
        await expectJson(c, "/users/%2541", 200, { route: "user", id: "%41" });
        await expectJson(c, "/users/caf%C3%A9", 200, { route: "user", id: "café" });
      },
    },
    {
      name: "a malformed percent-encoding in a path parameter is a 400",
      async run(c) {
        await expectText(
          c,
          "/users/%E0%A4%A",
          400,
          '400 Path Params Error — Path parameter "id" has malformed percent-encoding "%E0%A4%A"',
        );
      },
    },
    {
      name: "a regex parameter only matches what its regex allows",
      async run(c) {
        await expectJson(c, "/digits/123", 200, { route: "digits", id: "123" });
        await expectJson(c, "/digits/abc", 200, { route: "slug", slug: "abc" });
      },
    },
    {
      name: "an optional parameter may be left out",
      async run(c) {
        await expectJson(c, "/lang/docs", 200, { route: "docs" });
        await expectJson(c, "/lang/en/docs", 200, { route: "docs", lang: "en" });
        await expectJson(c, "/opt", 200, { route: "opt" });
        await expectJson(c, "/opt/x", 200, { route: "opt", name: "x" });
      },
    },
    {
      name: "a wildcard takes the rest of the path",
      async run(c) {
        await expectJson(c, "/files/a/b/c.txt", 200, { route: "files", 0: "a/b/c.txt" });
        await expectText(c, "/files", 404, "404 Not Found");
      },
    },
    {
      name: "a dot in a static route is a dot",
      async run(c) {
        await expectText(c, "/report.json", 200, "report");
        await expectText(c, "/reportxjson", 404, "404 Not Found");
      },
    },
  ],
};
