import assert from "node:assert/strict";
import { defineView } from "../../../src/mod.ts";
import { expectJson, expectText, REQUEST_ID } from "../helpers.ts";
import type { Topic } from "../suite.ts";

/** Errors: 404 by Accept, 500 without detail, failing renderers. */
export const errors: Topic = {
  name: "Errors: 404 by Accept, 500 without detail, failing renderers",
  routes(app) {
    app.get("/boom", () => {
      throw new Error("secret detail");
    });
    const Failing = defineView({
      json: (): unknown => {
        throw new Error("renderer failed");
      },
    });
    app.get("/bad-view", () => Failing(undefined));
  },
  cases: [
    {
      name: "no route is a 404 in text, JSON or HTML by Accept, with the request id",
      async run(c) {
        const text = await expectText(c, "/nowhere", 404, "404 Not Found");
        assert.match(text.headers.get("x-request-id") ?? "", REQUEST_ID);
        await expectJson(c, "/nowhere", 404, {
          error: { name: "Not Found", message: null, code: 404, payload: null },
        });
        const html = await c.fetch("/nowhere", { headers: { accept: "text/html" } });
        const page = await html.text();
        assert.equal(html.headers.get("content-type"), "text/html; charset=utf-8");
        assert.match(page, /<h1>404 Not Found<\/h1>/);
        assert.ok(
          page.includes(html.headers.get("x-request-id") ?? "missing"),
          "the page shows the request id",
        );
      },
    },
    {
      name: "Accept q-values choose the error format",
      async run(c) {
        const res = await c.fetch("/nowhere", {
          headers: { accept: "text/html;q=0.5, application/json;q=0.9" },
        });
        assert.equal(res.headers.get("content-type"), "application/json");
        await res.text();
      },
    },
    {
      name: "an unexpected error is a 500 with no detail",
      async run(c) {
        const res = await expectText(c, "/boom", 500, "500 Internal Server Error");
        assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
        await expectJson(c, "/boom", 500, {
          error: { name: "Internal Server Error", message: null, code: 500, payload: null },
        });
      },
    },
    {
      name: "Problem Details when asked for: a 404 and a 500 as application/problem+json, the request id as instance",
      async run(c) {
        for (const [path, status, title] of [
          ["/nowhere", 404, "Not Found"],
          ["/boom", 500, "Internal Server Error"],
        ] as const) {
          const res = await c.fetch(path, { headers: { accept: "application/problem+json" } });
          assert.equal(res.headers.get("content-type"), "application/problem+json");
          assert.deepEqual(await res.json(), {
            type: "about:blank",
            title,
            status,
            instance: res.headers.get("x-request-id"),
            name: title.replace(/ /g, ""),
          });
        }
      },
    },
    {
      name: "a failing renderer is a 500, not a crash",
      async run(c) {
        await expectText(c, "/bad-view", 500, "500 Internal Server Error");
      },
    },
  ],
};
