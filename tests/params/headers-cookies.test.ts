// Header and cookie params, declared like the other sources: validated and cast, matched as HTTP
// matches them (header names in any case, cookie names exactly), failures named by their source and
// never showing the value sent, documented as `in: header` / `in: cookie`, and sent by the typed client.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { z } from "zod";
import { createClient } from "../../src/client/mod.ts";
import { createApp, defineEndpoint, defineRoutes, defineView, t } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { deref } from "../openapi/deref.ts";

const Echo = defineView({
  schema: v.object({ key: v.string(), version: v.number(), theme: v.string(), page: v.number() }),
  json: (value: { key: string; version: number; theme: string; page: number }) => value,
});

const Whoami = defineEndpoint({
  params: {
    headers: { "X-Api-Key": v.pipe(v.string(), v.minLength(8)), "x-version": v.optional(t.int32(), 1) },
    cookies: { theme: v.picklist(["dark", "light"]), page: z.coerce.number().int().default(1) },
    query: { q: v.optional(v.string()) },
  },
  view: Echo,
  call: ({ params }) =>
    Echo({
      key: params.headers["X-Api-Key"],
      version: params.headers["x-version"],
      theme: params.cookies.theme,
      page: params.cookies.page,
    }),
});

const api = defineRoutes({ whoami: ["GET", "/whoami", Whoami] });
const app = createApp();
app.mount("/api", api);

const get = (headers: Record<string, string>) =>
  app.fetch(
    new Request("http://localhost/api/whoami", { headers: { accept: "application/json", ...headers } }),
  );

describe("header and cookie params", () => {
  test("are read in any case (headers) and percent-decoded (cookies), cast and given to the endpoint", async () => {
    const response = await get({
      "x-API-key": "secret-123",
      "X-VERSION": "3",
      cookie: "theme=dark; page=%32",
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { key: "secret-123", version: 3, theme: "dark", page: 2 });
  });

  test("defaults apply to absent optional ones", async () => {
    const response = await get({ "x-api-key": "secret-123", cookie: "theme=light" });
    assert.deepEqual(await response.json(), { key: "secret-123", version: 1, theme: "light", page: 1 });
  });

  test("a missing or invalid header is a 400 HeaderParamsError that never shows the value", async () => {
    const missing = await get({ cookie: "theme=dark" });
    assert.equal(missing.status, 400);
    const body = (await missing.json()) as { error: { name: string; message: string; payload: unknown } };
    assert.equal(body.error.name, "Header Params Error");
    assert.equal(body.error.message, 'Header "X-Api-Key" is missing');

    for (const [headers, message] of [
      [{ "x-api-key": "hunter2" }, 'Header "X-Api-Key" is invalid: expected length >=8'],
      [
        { "x-api-key": "secret-123", "x-version": "hunter2hunter2" },
        'Header "x-version" cannot be cast to Int32',
      ],
    ] as const) {
      const response = await get({ ...headers, cookie: "theme=dark" });
      assert.equal(response.status, 400);
      const text = await response.text();
      assert.ok(!text.includes("hunter2"), `the value is echoed: ${text}`);
      assert.equal((JSON.parse(text) as { error: { message: string } }).error.message, message);
    }
  });

  test("a wrong cookie is a 400 CookieParamsError that never shows the value, in any format", async () => {
    for (const accept of ["application/json", "text/plain", "text/html"]) {
      const response = await app.fetch(
        new Request("http://localhost/api/whoami", {
          headers: { accept, "x-api-key": "secret-123", cookie: "theme=hunter2; page=hunter3" },
        }),
      );
      assert.equal(response.status, 400);
      const text = await response.text();
      assert.ok(!text.includes("hunter"), `${accept}: the value is echoed: ${text}`);
      assert.match(text, /Cookie Params Error|Cookie &quot;theme&quot;|Cookie "theme"/);
    }
    const absent = await get({ "x-api-key": "secret-123", cookie: "Theme=dark" });
    assert.equal(
      ((await absent.json()) as { error: { message: string } }).error.message,
      'Cookie "theme" is missing',
    );
  });

  test("a declaration that HTTP cannot carry is refused when it is made", () => {
    assert.throws(() => defineEndpoint({ params: { headers: { "bad name": v.string() } }, call: () => {} }), {
      message: /not a header name/,
    });
    assert.throws(() => defineEndpoint({ params: { cookies: { "a;b": v.string() } }, call: () => {} }), {
      message: /is not a cookie name/,
    });
    assert.throws(
      () => defineEndpoint({ params: { headers: { accept: v.array(v.string()) } }, call: () => {} }),
      { message: /cannot be a group or an array/ },
    );
  });

  test("are documented as header and cookie parameters with their errors", () => {
    const doc = deref(openapi(app, { info: { title: "t", version: "1" } }));
    const operation = doc.paths["/api/whoami"]!.get as {
      parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
      responses: Record<string, { description: string }>;
    };
    const byPlace = operation.parameters.map(({ name, in: place, required }) => [place, name, required]);
    assert.deepEqual(byPlace, [
      ["query", "q", false],
      ["header", "X-Api-Key", true],
      ["header", "x-version", false],
      ["cookie", "theme", true],
      ["cookie", "page", false],
    ]);
    assert.equal(operation.parameters.find(({ name }) => name === "x-version")!.schema.type, "integer");
    assert.match(operation.responses["400"]!.description, /HeaderParamsError/);
    assert.match(operation.responses["400"]!.description, /CookieParamsError/);
  });

  for (const mode of ["routes", "document"] as const) {
    test(`the typed client sends them (${mode} mode), beside other headers`, async () => {
      const doc = openapi(app, { info: { title: "t", version: "1" } });
      const client = createClient<typeof api>({
        baseUrl: "http://localhost/api",
        fetch: (request) => app.fetch(request),
        ...(mode === "routes" ? { routes: api } : { spec: doc }),
      });
      const ok = await client.whoami({
        headers: { "X-Api-Key": "secret-123", "x-version": 7, "x-other": "kept" },
        cookies: { theme: "light", page: 4 },
      });
      assert.deepEqual(ok, {
        ok: true,
        status: 200,
        data: { key: "secret-123", version: 7, theme: "light", page: 4 },
      });
      const bad = await client.whoami({ headers: { "X-Api-Key": "short" }, cookies: { theme: "dark" } });
      assert.equal(bad.ok, false);
      if (!bad.ok) assert.equal(bad.error.name, "HeaderParamsError");
    });
  }
});
