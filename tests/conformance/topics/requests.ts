import assert from "node:assert/strict";
import { getCookie } from "../../../src/cookie/mod.ts";
import { Echo, expectText } from "../helpers.ts";
import { rawExchange } from "../raw.ts";
import type { Topic } from "../suite.ts";

/** Requests and responses: the context, cookies, streams, raw bodies. */
export const requests: Topic = {
  name: "Requests and responses: the context, cookies, streams, raw bodies",
  routes(app) {
    app.get("/context", (ctx) =>
      Echo({
        method: ctx.request.method,
        path: ctx.request.path,
        query: ctx.request.query,
        id: ctx.request.id,
        headers: ctx.request.headers instanceof Headers,
        raw: ctx.request.raw instanceof Request,
      }),
    );
    app.get("/cookies", (ctx) => {
      ctx.response.headers.append("set-cookie", "a=1; Path=/");
      ctx.response.headers.append("set-cookie", "b=2; Path=/");
    });
    app.get("/cookies/read", (ctx) => {
      const header = ctx.request.header("cookie");
      ctx.response.write(
        `${getCookie(ctx, "a")} ${getCookie(ctx, "b")} ${getCookie(ctx, "c")} ${header === ctx.request.headers.get("cookie")}`,
      );
    });
    app.get("/stream", () => {
      const encoder = new TextEncoder();
      let n = 0;
      return new Response(
        new ReadableStream({
          pull(controller) {
            if (n === 3) controller.close();
            else controller.enqueue(encoder.encode(`chunk${n++};`));
          },
        }),
        { headers: { "content-type": "text/plain" } },
      );
    });
    app.post("/read-body", async (ctx) => {
      ctx.response.write(`read ${(await ctx.request.raw.text()).length}`);
    });
  },
  cases: [
    {
      name: "the context carries method, path, raw query and the standard Request",
      async run(c) {
        const again = await c.fetch("/context?x=1&y=%20", { headers: { accept: "application/json" } });
        const body = (await again.json()) as Record<string, unknown>;
        assert.equal(body.id, again.headers.get("x-request-id"));
        assert.deepEqual(
          { ...body, id: "" },
          { method: "GET", path: "/context", query: "x=1&y=%20", id: "", headers: true, raw: true },
        );
      },
    },
    {
      name: 'two Cookie header lines: every cookie of both is read (joined with "; " as on Bun and Deno)',
      needsServer: true,
      async run(c) {
        const answer = await rawExchange(
          c.server!.origin,
          "GET /cookies/read HTTP/1.1\r\nHost: x\r\nCookie: a=1; b=2\r\nCookie: c=3\r\nConnection: close\r\n\r\n",
        );
        assert.ok(answer.kind === "response", c.runtime);
        // workerd joins the lines with ", " before the Worker sees them (docs/guide/cookies.md).
        const expected = c.runtime === "workerd" ? "1 2, c=3 undefined true" : "1 2 3 true";
        assert.equal(answer.body, expected, c.runtime);
      },
    },
    {
      name: "several Set-Cookie headers stay apart",
      async run(c) {
        const res = await c.fetch("/cookies");
        assert.deepEqual(res.headers.getSetCookie(), ["a=1; Path=/", "b=2; Path=/"]);
      },
    },
    {
      name: "a streamed body arrives whole",
      async run(c) {
        await expectText(c, "/stream", 200, "chunk0;chunk1;chunk2;");
      },
    },
    {
      name: "a request body is readable from ctx.request.raw",
      async run(c) {
        await expectText(c, "/read-body", 200, "read 11", { method: "POST", body: "hello world" });
      },
    },
  ],
};
