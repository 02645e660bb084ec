// The rest of a request's work as one continuation (src/context/later.ts): unit cases, then a JSON
// endpoint with asynchronous user code at every place an app can put it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { isPending, Later, later, settled } from "../../src/context/later.ts";
import { createApp, defineEndpoint, defineError, defineView, t } from "../../src/mod.ts";

describe("Later", () => {
  test("continuations run in order in the one reaction of the promise, each on the last one's value", async () => {
    const seen: string[] = [];
    let resolve!: (value: number) => void;
    const chain = new Later<number>(new Promise<number>((r) => (resolve = r)))
      .next((n) => n + 1)
      .next((n) => `${n}!`)
      .next((text) => {
        seen.push(text);
        return text.length;
      });
    // A microtask queued before the source settles runs after all of them: one hop, not three.
    resolve(1);
    queueMicrotask(() => seen.push("next microtask"));
    assert.equal(await chain.promise, 2);
    assert.deepEqual(seen, ["2!", "next microtask"]);
  });

  test("an error skips to the next error handler, which may recover; an unhandled one rejects", async () => {
    const recovered = later(Promise.resolve(1), (): number => {
      throw new Error("boom");
    })
      .next((n) => n * 10)
      .next(
        () => "not reached",
        (error) => `recovered from ${(error as Error).message}`,
      );
    assert.equal(await recovered.promise, "recovered from boom");
    const rejected = later(Promise.reject(new Error("source")), (value: unknown) => value);
    await assert.rejects(rejected.promise, /source/);
  });

  test("a continuation that waits (a promise or another Later) holds the rest until it settles", async () => {
    const order: string[] = [];
    const inner = later(Promise.resolve("inner"), (value) => {
      order.push(value);
      return value.toUpperCase();
    });
    const outer = later(Promise.resolve(0), () => inner)
      .next((value) => {
        order.push(`after ${value}`);
        return new Promise<string>((resolve) => setTimeout(() => resolve("timer"), 5));
      })
      .next((value) => {
        order.push(value);
        return order.length;
      });
    assert.equal(await outer.promise, 3);
    assert.deepEqual(order, ["inner", "after INNER", "timer"]);
  });

  test("continued once it has run, it still continues, on its promise", async () => {
    const chain = later(Promise.resolve(2), (n) => n * 2);
    assert.equal(await chain.promise, 4);
    assert.equal(await chain.next((n) => n + 1).promise, 5);
    // A continuation that waits then is waited for, not passed on as a value.
    const inner = later(Promise.resolve("waited"), (text) => `${text}!`);
    assert.equal(await chain.next(() => inner).promise, "waited!");
  });

  test("a continuation that returns its own Later fails with a TypeError, not a hang", async () => {
    const chain: Later<unknown> = later(Promise.resolve(1), () => chain);
    await assert.rejects(chain.promise, /cannot wait for itself/);
  });

  test("isPending and settled tell a value that is there from one that is not", async () => {
    const chain = later(Promise.resolve(1), (n) => n);
    assert.equal(isPending(chain), true);
    assert.equal(isPending(Promise.resolve()), true);
    assert.equal(isPending({ next() {} }), false);
    assert.equal(isPending(undefined), false);
    assert.ok(settled(chain) instanceof Promise);
    assert.equal(settled(7), 7);
  });
});

describe("asynchronous user code around a JSON body", () => {
  const Json = defineView({ json: (data: object) => data });
  const Taken = defineError("Taken", 409);

  function app() {
    const events: string[] = [];
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const CreateUser = defineEndpoint({
      params: { json: t.body({ name: v.string() }, { require: true }) },
      errors: { Taken },
      before: [
        async () => {
          await tick();
          events.push("before");
        },
      ],
      async call(ep) {
        await tick();
        events.push(`call ${ep.params.json.name}`);
        if (ep.params.json.name === "taken") throw new ep.errors.Taken();
        ep.status(201);
        return Json({ name: ep.params.json.name });
      },
      after: [
        async (ep) => {
          await tick();
          events.push("after");
          ep.header("x-after", "yes");
        },
      ],
    });
    const server = createApp();
    server.use(async (ctx, next) => {
      events.push("middleware in");
      await next();
      events.push(`middleware out ${ctx.response.status}`);
      ctx.response.headers.set("x-middleware", "yes");
    });
    server.onError(async (error, ctx) => {
      await tick();
      events.push("onError");
      if (error instanceof Taken) {
        ctx.response.status = 409;
        return Json({ taken: true });
      }
      return undefined;
    });
    server.on("/users", (r) => {
      r.before(async () => {
        await tick();
        events.push("namespace before");
      });
      r.post("/", CreateUser);
    });
    return { server, events };
  }

  test("every step runs in order, and the response has what each one set", async () => {
    const { server, events } = app();
    const res = await server.request("/users", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "ada" }),
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { name: "ada" });
    assert.equal(res.headers.get("x-after"), "yes");
    assert.equal(res.headers.get("x-middleware"), "yes");
    assert.deepEqual(events, [
      "middleware in",
      "namespace before",
      "before",
      "call ada",
      "after",
      "middleware out 201",
    ]);
  });

  test("an error raised after the body goes through the async error handler and out through the middleware", async () => {
    const { server, events } = app();
    const res = await server.request("/users", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "taken" }),
    });
    assert.equal(res.status, 409);
    assert.deepEqual(await res.json(), { taken: true });
    assert.equal(res.headers.get("x-after"), null);
    assert.equal(res.headers.get("x-middleware"), "yes");
    assert.deepEqual(events.slice(-3), ["call taken", "onError", "middleware out 409"]);
  });

  test("a body that fails validation is a 400 without running the endpoint's steps", async () => {
    const { server, events } = app();
    const res = await server.request("/users", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: 42 }),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(events, ["middleware in", "onError", "middleware out 400"]);
  });
});
