// The document of examples/api validated by an independent OpenAPI 3.1 validator, and every declared
// outcome of every route produced for real and checked against the documented schema (JSON Schema
// 2020-12, with formats).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { app, document } from "../../examples/api/app.ts";
import { deref } from "./deref.ts";

// Documents and bodies are read as untyped JSON here.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Json = any;

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
const paths = deref(document).paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
const seen = new Set<string>();

// Sends a request, checks its answer against the document (status declared, body valid), and returns it.
async function outcome(
  method: string,
  template: string,
  path: string,
  expected: number,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const response = await app.request(path, {
    method,
    body: init.body ?? null,
    headers: { accept: "application/json", ...init.headers },
  });
  const body = (await response.json()) as Json;
  assert.equal(response.status, expected, `${method} ${path}: ${JSON.stringify(body)}`);
  const documented = paths[template]?.[method.toLowerCase()]?.responses[String(response.status)];
  assert.ok(documented, `${method} ${template} documents ${response.status}`);
  const schema = documented.content["application/json"].schema;
  const validate = ajv.compile(schema);
  const valid: boolean = validate(body);
  assert.ok(
    valid,
    `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
  );
  // Every header documented for this answer is sent (the request id, a 201's Location, …).
  for (const header of Object.keys(documented.headers ?? {})) {
    assert.ok(response.headers.has(header), `${method} ${path} ${response.status} sends ${header}`);
  }
  seen.add(`${method} ${template} ${response.status}${body.error ? ` ${body.error.name}` : ""}`);
  if (response.status >= 400) {
    // Asked for text, or for nothing in particular, an error comes in a documented media type too.
    for (const accept of ["text/plain", "*/*"]) {
      const again = await app.request(path, {
        method,
        body: init.body ?? null,
        headers: { ...init.headers, accept },
      });
      const mediaType = again.headers.get("content-type")!.split(";")[0]!;
      assert.equal(again.status, response.status);
      assert.ok(mediaType in documented.content, `${method} ${path} ${again.status} documents ${mediaType}`);
      assert.equal(typeof (await again.text()), "string");
    }
  }
  return { status: response.status, body };
}
const json = (value: unknown) => ({
  body: JSON.stringify(value),
  headers: { "content-type": "application/json" },
});
const form = (text: string) => ({
  body: text,
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

describe("examples/api: the OpenAPI 3.1 document", () => {
  test("is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(document.openapi, "3.1.0");
  });

  test("is served at /openapi.json, with a reference page at /docs", async () => {
    assert.deepEqual(await (await app.request("/openapi.json")).json(), JSON.parse(JSON.stringify(document)));
    const docs = await app.request("/docs");
    assert.match(await docs.text(), /data-url="\/openapi.json"[\s\S]*@scalar\/api-reference@1\.72\.1/);
  });

  test("names, parameters, bodies and formats come from the declarations", () => {
    const getUser = paths["/api/users/{id}"]!.get as Json;
    assert.equal(getUser.operationId, "getUser");
    assert.deepEqual(getUser.parameters, [
      {
        name: "id",
        in: "path",
        required: true,
        schema: { type: "integer", minimum: -2147483648, maximum: 2147483647, format: "int32" },
      },
    ]);
    const list = paths["/api/users"]!.get as Json;
    const filter = list.parameters.find((p: { name: string }) => p.name === "filter");
    assert.equal(filter.style, "deepObject");
    assert.equal(filter.schema.properties.joinedAfter.format, "date-time");
    const create = paths["/api/users"]!.post as Json;
    assert.equal(create.requestBody.required, true);
    assert.deepEqual(Object.keys(create.responses), ["201", "400", "403", "409", "413"]);
    const post = paths["/api/users/{id}/posts"]!.post as Json;
    assert.deepEqual(Object.keys(post.requestBody.content), [
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "application/json",
    ]);
    assert.equal(post.requestBody.required, false);
    // Several errors on one code: anyOf, each name a const.
    const badRequest = post.responses["400"].content["application/json"].schema;
    assert.deepEqual(
      badRequest.anyOf.map((s: Json) => s.properties.error.properties.name.const),
      ["Path Params Error", "Form Body Error", "JSON Body Error"],
    );
    assert.deepEqual(Object.keys(paths["/api/posts/{id}"]!.get!.responses["200"].content), [
      "application/json",
      "text/html",
    ]);
  });
});

describe("examples/api: every declared outcome, checked against the document", () => {
  test("listUsers: 200, QueryParamsError", async () => {
    const ok = await outcome(
      "GET",
      "/api/users",
      "/api/users?filter[name]=Ada&filter[joinedAfter]=2020-01-01",
      200,
    );
    assert.equal(ok.body.users[0].name, "Ada");
    await outcome("GET", "/api/users", "/api/users?limit=500", 400);
  });

  test("getUser: 200, UserNotFound with its payload, PathParamsError", async () => {
    await outcome("GET", "/api/users/{id}", "/api/users/1", 200);
    const missing = await outcome("GET", "/api/users/{id}", "/api/users/99", 404);
    assert.deepEqual(missing.body.error.payload, { id: 99 });
    await outcome("GET", "/api/users/{id}", "/api/users/abc", 400);
  });

  test("createUser: 201, EmailTaken, JSONBodyError, and its middleware's CSRF refusal and body limit", async () => {
    const user = { user: { name: "Lin", email: "lin@example.com" } };
    await outcome("POST", "/api/users", "/api/users", 201, json(user));
    await outcome("POST", "/api/users", "/api/users", 409, json(user));
    await outcome("POST", "/api/users", "/api/users", 400, json({ user: { name: "" } }));
    const crossSite = json(user);
    await outcome("POST", "/api/users", "/api/users", 403, {
      ...crossSite,
      headers: { ...crossSite.headers, "sec-fetch-site": "cross-site" },
    });
    await outcome("POST", "/api/users", "/api/users", 413, json({ user: { name: "x".repeat(70_000) } }));
  });

  test("createPost: 201 from JSON or a form, UserNotFound, MissingBody, the three parameter errors", async () => {
    const template = "/api/users/{id}/posts";
    await outcome("POST", template, "/api/users/1/posts", 201, json({ post: { title: "T", body: "B" } }));
    await outcome("POST", template, "/api/users/1/posts", 201, form("post[title]=From+a+form&post[body]=Hi"));
    await outcome("POST", template, "/api/users/99/posts", 404, json({ post: { title: "T", body: "B" } }));
    await outcome("POST", template, "/api/users/1/posts", 415, {
      body: "x",
      headers: { "content-type": "text/plain" },
    });
    await outcome("POST", template, "/api/users/1/posts", 400, form("post[title]="));
    await outcome("POST", template, "/api/users/1/posts", 400, json({ post: { title: 1 } }));
    await outcome("POST", template, "/api/users/x/posts", 400, json({ post: { title: "T", body: "B" } }));
    await outcome("POST", template, "/api/users/1/posts", 403, {
      ...form("post[title]=T&post[body]=B"),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
    });
    await outcome(
      "POST",
      template,
      "/api/users/1/posts",
      413,
      form(`post[title]=T&post[body]=${"x".repeat(70_000)}`),
    );
  });

  test("getPost: 200, PostNotFound, PathParamsError", async () => {
    await outcome("GET", "/api/posts/{id}", "/api/posts/1", 200);
    await outcome("GET", "/api/posts/{id}", "/api/posts/999", 404);
    await outcome("GET", "/api/posts/{id}", "/api/posts/1.5", 400);
  });

  test("every documented response was produced", () => {
    for (const [template, item] of Object.entries(paths)) {
      if (!template.startsWith("/api/")) continue;
      for (const [method, operation] of Object.entries(item)) {
        for (const status of Object.keys(operation.responses)) {
          // Middleware errors are documented on every route; a GET cannot meet the CSRF check or a body limit.
          if (method === "get" && (status === "403" || status === "413")) continue;
          const produced = [...seen].some((entry) =>
            entry.startsWith(`${method.toUpperCase()} ${template} ${status}`),
          );
          assert.ok(produced, `${method.toUpperCase()} ${template} ${status} was never produced`);
        }
      }
    }
  });
});
