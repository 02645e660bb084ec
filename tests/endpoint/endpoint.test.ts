import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import {
  createApp,
  createContext,
  defineEndpoint,
  defineError,
  defineView,
  HttpError,
  isView,
  JSONBodyError,
  PathParamsError,
  QueryParamsError,
  t,
} from "../../src/mod.ts";

const Text = defineView({ text: (s: string) => s });

describe("Endpoint.call(ctx)", () => {
  const GetPost = defineEndpoint({
    params: { path: { id: t.int32() } },
    errors: { PostNotFound: 404 },
    call(ep) {
      if (ep.params.path.id !== 1) throw new ep.errors.PostNotFound();
      return Text("post 1");
    },
  });

  test("resolves to the view, without a server", async () => {
    const ctx = createContext(new Request("http://localhost/posts/1"), { pathParams: { id: "1" } });
    const view = await GetPost.call(ctx);
    assert.ok(isView(view));
    assert.equal(view.data, "post 1");
  });

  test("rejects with the parameter error", async () => {
    const ctx = createContext(new Request("http://localhost/posts/x"), { pathParams: { id: "x" } });
    await assert.rejects(GetPost.call(ctx), (error: unknown) => {
      assert.ok(error instanceof PathParamsError);
      assert.equal(error.code, 400);
      assert.equal(error.message, 'Path parameter "id" cannot be cast from "x" to Int32');
      assert.deepEqual(error.payload.path, ["id"]);
      return true;
    });
  });

  test("rejects with the declared error, an instance of Endpoint.errors.Name", async () => {
    const ctx = createContext(new Request("http://localhost/posts/2"), { pathParams: { id: "2" } });
    await assert.rejects(GetPost.call(ctx), (error: unknown) => {
      assert.ok(error instanceof GetPost.errors.PostNotFound);
      assert.ok(error instanceof HttpError);
      assert.ok(error instanceof Error);
      assert.deepEqual(
        [error.code, error.name, error.message, error.payload],
        [404, "PostNotFound", undefined, undefined],
      );
      return true;
    });
  });
});

describe("declared errors", () => {
  const Errors = defineEndpoint({
    errors: {
      Plain: 404,
      WithMessage: { code: 410, message: "gone for good" },
      WithPayload: {
        code: 422,
        payload: { field: v.string(), min: t.int32() },
        message: (p) => `${p.field} < ${p.min}`,
      },
    },
    call: () => undefined,
  });

  test("have code, name, message and payload as declared", () => {
    const plain = new Errors.errors.Plain();
    assert.deepEqual(
      [plain.code, plain.name, plain.message, plain.payload],
      [404, "Plain", undefined, undefined],
    );
    const withMessage = new Errors.errors.WithMessage();
    assert.deepEqual(
      [withMessage.code, withMessage.message, withMessage.payload],
      [410, "gone for good", undefined],
    );
    const withPayload = new Errors.errors.WithPayload({ field: "age", min: 18 });
    assert.deepEqual(
      [withPayload.code, withPayload.message, withPayload.payload],
      [422, "age < 18", { field: "age", min: 18 }],
    );
    assert.equal(Errors.errors.WithPayload.code, 422);
    assert.equal(Errors.errors.WithPayload.name, "WithPayload");
  });

  test("only the declared attributes reach the payload", () => {
    const error = new Errors.errors.WithPayload({ field: "a", min: 1, secret: "x" } as never);
    assert.deepEqual(error.payload, { field: "a", min: 1 });
  });

  test("codes outside HTTP error statuses and websocket codes are refused", () => {
    assert.throws(() => defineEndpoint({ errors: { Ok: 200 }, call: () => {} }), /code must be 400–599/);
    assert.throws(
      () => defineEndpoint({ errors: { "not a name": 400 }, call: () => {} }),
      /must be an identifier/,
    );
  });
});

describe("execution order", () => {
  function tracing(mode: string) {
    const trace: string[] = [];
    const Endpoint = defineEndpoint({
      params: { query: { fail: v.optional(v.string()) } },
      before: [
        () => {
          trace.push("before 1");
        },
        async (ep) => {
          await Promise.resolve();
          trace.push("before 2");
          if (ep.params.query.fail === "before") throw new Error("before failed");
        },
      ],
      after: [
        () => {
          trace.push("after 1");
        },
        () => {
          trace.push("after 2");
        },
      ],
      async call(ep) {
        trace.push("call");
        if (ep.params.query.fail === "call") throw new Error("call failed");
      },
    });
    const app = createApp({ logger: { error: () => {} } });
    app.get("/", Endpoint);
    return { trace, run: () => app.request(`/?${mode}`) };
  }

  test("params, then every before in order, then call, then every after in order", async () => {
    const { trace, run } = tracing("");
    assert.equal((await run()).status, 200);
    assert.deepEqual(trace, ["before 1", "before 2", "call", "after 1", "after 2"]);
  });

  test("a raise in before skips call and after", async () => {
    const { trace, run } = tracing("fail=before");
    assert.equal((await run()).status, 500);
    assert.deepEqual(trace, ["before 1", "before 2"]);
  });

  test("a raise in call skips after", async () => {
    const { trace, run } = tracing("fail=call");
    assert.equal((await run()).status, 500);
    assert.deepEqual(trace, ["before 1", "before 2", "call"]);
  });

  test("a parameter error runs nothing", async () => {
    const { trace, run } = tracing("fail[x]=1");
    assert.equal((await run()).status, 400);
    assert.deepEqual(trace, []);
  });
});

describe("the router and views", () => {
  test("the router sets ctx.response.view only if still unset", async () => {
    const Inner = defineEndpoint({ call: () => Text("from endpoint") });
    const app = createApp();
    app.use(async (ctx, next) => {
      ctx.response.view = Text("from middleware");
      await next();
    });
    app.get("/", Inner);
    assert.equal(await (await app.request("/")).text(), "from middleware");
  });

  test("a block route renders a returned view", async () => {
    const app = createApp();
    app.get("/", () => Text("block view"));
    const res = await app.request("/");
    assert.deepEqual(
      [await res.text(), res.headers.get("content-type")],
      ["block view", "text/plain; charset=utf-8"],
    );
  });

  test("views never set the status; endpoints do", async () => {
    const Created = defineEndpoint({
      call(ep) {
        ep.status(201);
        ep.header("location", "/things/1");
        return Text("created");
      },
    });
    const app = createApp();
    app.post("/things", Created);
    const res = await app.request("/things", { method: "POST" });
    assert.deepEqual(
      [res.status, res.headers.get("location"), await res.text()],
      [201, "/things/1", "created"],
    );
  });

  test("redirect accepts the redirect statuses only", async () => {
    const Moved = defineEndpoint({ call: (ep) => ep.redirect("/new", 301) });
    const Bad = defineEndpoint({ call: (ep) => ep.redirect("/new", 200) });
    const app = createApp({ logger: { error: () => {} } });
    app.get("/moved", Moved);
    app.get("/bad", Bad);
    const moved = await app.request("/moved");
    assert.deepEqual([moved.status, moved.headers.get("location")], [301, "/new"]);
    assert.equal((await app.request("/bad")).status, 500);
  });
});

describe("params declarations", () => {
  test("a valibot object schema works as a source", async () => {
    const Search = defineEndpoint({
      params: { query: v.object({ q: v.pipe(v.string(), v.minLength(2)), n: v.optional(t.int32(), 1) }) },
      call: (ep) => Text(`${ep.params.query.q}:${ep.params.query.n}`),
    });
    const app = createApp();
    app.get("/", Search);
    assert.equal(await (await app.request("/?q=ab&n=3")).text(), "ab:3");
    const res = await app.request("/?q=a");
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Query parameter "q" is invalid: expected length >=2$/);
  });

  test("groups inside arrays, and a transform as a converter", async () => {
    const Batch = defineEndpoint({
      params: {
        query: {
          users: t.array(
            t.group({
              name: v.pipe(
                v.string(),
                v.transform((s) => s.toUpperCase()),
              ),
              age: t.int32(),
            }),
          ),
        },
      },
      call: (ep) => Text(ep.params.query.users.map((u) => `${u.name}/${u.age}`).join(",")),
    });
    const app = createApp();
    app.get("/", Batch);
    assert.equal(
      await (
        await app.request("/?users[0][name]=ann&users[0][age]=3&users[1][name]=bo&users[1][age]=4")
      ).text(),
      "ANN/3,BO/4",
    );
    assert.match(
      await (await app.request("/?users[1][age]=x&users[0][name]=a&users[0][age]=1&users[1][name]=b")).text(),
      /Query parameter "users\[1\]\[age\]" cannot be cast from "x" to Int32/,
    );
  });

  test("JSON key aliases and JSON helper types", async () => {
    const Create = defineEndpoint({
      params: {
        json: t.body(
          {
            userId: t.key("user_id", t.int32()),
            at: t.epoch(),
            big: t.int64(),
            on: t.date(),
            ratio: t.float(),
          },
          { require: true },
        ),
      },
      call: (ep) =>
        Text(
          [
            ep.params.json.userId,
            ep.params.json.at.toISOString(),
            ep.params.json.big,
            ep.params.json.on.toISOString(),
            ep.params.json.ratio,
          ].join(" "),
        ),
    });
    const app = createApp();
    app.post("/", Create);
    const body = JSON.stringify({ user_id: 7, at: 0, big: 42, on: "2024-02-29", ratio: 17 });
    assert.equal(
      await (await app.request("/", { method: "POST", body })).text(),
      "7 1970-01-01T00:00:00.000Z 42 2024-02-29T00:00:00.000Z 17",
    );
    const bad = JSON.stringify({ user_id: 7, at: 0, big: 1.5, on: "2023-02-29", ratio: 1 });
    const res = await app.request("/", {
      method: "POST",
      body: bad,
      headers: { accept: "application/json" },
    });
    const issues = ((await res.json()) as { error: { payload: { issues: { message: string }[] } } }).error
      .payload.issues;
    assert.deepEqual(
      issues.map((issue) => issue.message),
      [
        'JSON parameter "big" cannot be cast from 1.5 to Int64',
        'JSON parameter "on" cannot be cast from "2023-02-29" to Date',
      ],
    );
  });

  test("a required form body must not be empty", async () => {
    const Form = defineEndpoint({
      params: { form: t.body({ a: v.string() }, { require: true }) },
      call: () => undefined,
    });
    const app = createApp();
    app.post("/", Form);
    const res = await app.request("/", { method: "POST", body: "" });
    assert.deepEqual([res.status, await res.text()], [400, "400 Form Body Error — Missing request body"]);
  });

  test("preserveBody keeps the raw body readable", async () => {
    const Hook = defineEndpoint({
      params: { json: t.body({ event: v.string() }, { require: true, preserveBody: true }) },
      async call(ep) {
        return Text(`${ep.params.json.event} ${(await ep.request.raw.text()).length}`);
      },
    });
    const app = createApp();
    app.post("/", Hook);
    const body = '{"event":"push"}';
    assert.equal(await (await app.request("/", { method: "POST", body })).text(), `push ${body.length}`);
  });

  test("invalid UTF-8 and a lying Content-Length are 4xx", async () => {
    const Json = defineEndpoint({
      params: { json: t.body({ a: v.string() }, { require: true }) },
      call: () => undefined,
    });
    const app = createApp({ limits: { bodySize: 100 } });
    app.post("/", Json);
    const utf8 = await app.request("/", { method: "POST", body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) });
    assert.deepEqual(
      [utf8.status, await utf8.text()],
      [400, "400 JSON Body Error — Request body is not valid UTF-8"],
    );
    const declared = await app.request("/", {
      method: "POST",
      body: "{}",
      headers: { "content-length": "1000" },
    });
    assert.equal(declared.status, 413);
    const streamed = await app.request("/", { method: "POST", body: JSON.stringify({ a: "x".repeat(200) }) });
    assert.equal(streamed.status, 413);
  });

  test("the error classes are exported for instanceof checks", () => {
    assert.ok(new QueryParamsError([{ path: ["q"], message: "m" }]) instanceof HttpError);
    assert.equal(new JSONBodyError([]).message, "Invalid parameters");
  });

  test("declarations that cannot be read are refused at definition time", () => {
    assert.throws(
      () => defineEndpoint({ params: { path: { ids: t.array(t.int32()) } }, call: () => {} }),
      /cannot be a group or an array/,
    );
    assert.throws(
      () => defineEndpoint({ params: { body: {} } as never, call: () => {} }),
      /Unknown params source "body"/,
    );
    assert.throws(
      () => defineEndpoint({ params: { query: { x: t.key("__proto__", v.string()) } }, call: () => {} }),
      /Invalid source key/,
    );
  });
});

test("HttpErrors and declared errors carry no stack trace, and leave the stack limit as it was", () => {
  const NotThere = defineError("NotThere", 404, { payload: { id: v.number() } });
  const before = Error.stackTraceLimit;
  for (const error of [new NotThere({ id: 1 }), new HttpError(409, "Conflict", "taken")]) {
    assert.equal(error.stack?.includes("\n    at ") ?? false, false, String(error.stack));
    assert.ok(error instanceof Error);
  }
  assert.equal(Error.stackTraceLimit, before);
  assert.match(String(new Error("a bug").stack), /\n\s+at /);
});

describe("params named like Object.prototype members, and t.key aliases", () => {
  const Inspect = defineEndpoint({
    params: {
      query: { toString: v.optional(v.string()), valueOf: v.optional(t.int32()), ok: v.optional(v.string()) },
      form: { hasOwnProperty: v.optional(v.string()), other: v.optional(v.string()) },
      json: {
        isPrototypeOf: v.optional(v.string()),
        jsonParam: t.key("json_param", v.optional(v.number())),
        inner: v.optional(v.object({ propertyIsEnumerable: v.optional(v.string()) })),
      },
    },
    call: (ep) =>
      Response.json({
        query: [typeof ep.params.query.toString, typeof ep.params.query.valueOf],
        form: typeof ep.params.form?.hasOwnProperty,
        json: typeof ep.params.json?.isPrototypeOf,
        inner: typeof ep.params.json?.inner?.propertyIsEnumerable,
        jsonParam: ep.params.json?.jsonParam ?? null,
      }),
  });
  const app = createApp();
  app.post("/json", Inspect);
  app.put("/form", Inspect);

  test("an absent optional param is undefined, whatever its name, in query, form and JSON", async () => {
    const json = await app.request("/json?ok=1", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inner: {} }),
    });
    assert.deepEqual(await json.json(), {
      query: ["undefined", "undefined"],
      form: "undefined",
      json: "undefined",
      inner: "undefined",
      jsonParam: null,
    });
    const form = await app.request("/form", { method: "PUT", body: new URLSearchParams({ other: "x" }) });
    assert.equal(((await form.json()) as { form: string }).form, "undefined");
  });

  test("a t.key field is read from its key only, never from the field's own name", async () => {
    const send = (body: object) =>
      app.request("/json", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    assert.equal(((await (await send({ json_param: 6 })).json()) as { jsonParam: number }).jsonParam, 6);
    assert.equal(((await (await send({ jsonParam: 5 })).json()) as { jsonParam: null }).jsonParam, null);
  });
});
