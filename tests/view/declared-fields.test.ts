// A view with a schema sends only what it declares: an accidental `passwordHash` on the data never
// leaves the server, nested objects and arrays included. `strict: true` makes anything undeclared, or
// anything the schema refuses, a 500 that names it in the log.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { createApp, defineEndpoint, defineView } from "../../src/mod.ts";

const Author = v.object({ id: v.number(), name: v.string() });
const Schema = v.object({
  title: v.string(),
  tags: v.array(v.string()),
  author: Author,
  coauthors: v.array(Author),
  editor: v.optional(v.nullable(Author)),
  at: v.optional(v.string()),
  size: v.optional(v.union([v.number(), v.string()])),
  extra: v.optional(v.record(v.string(), v.number())),
});
type Data = Record<string, unknown>;
const user = { id: 1, name: "Ada", passwordHash: "$argon2id$secret", email: "ada@example.com" };
const post = {
  title: "T",
  tags: ["a"],
  author: user,
  coauthors: [user, { ...user, id: 2 }],
  editor: null,
  at: new Date("2026-11-26T00:00:00Z"),
  size: 3,
  extra: { a: 1 },
  internalNotes: "do not publish",
};

function serve(strict?: boolean): { app: ReturnType<typeof createApp>; logged: string[] } {
  const logged: string[] = [];
  const app = createApp({
    logger: { error: (message, error) => logged.push(`${message} ${String(error)}`), warn: () => {} },
  });
  const View = defineView({
    schema: Schema,
    ...(strict === undefined ? {} : { strict }),
    json: (data: Data) => data as never,
  });
  app.get("/post", defineEndpoint({ call: () => View(post) }));
  app.get(
    "/good",
    defineEndpoint({
      call: () => View({ title: "T", tags: [], author: { id: 1, name: "A" }, coauthors: [] }),
    }),
  );
  app.get(
    "/wrong",
    defineEndpoint({ call: () => View({ title: 1, tags: [], author: { id: 1, name: "A" }, coauthors: [] }) }),
  );
  return { app, logged };
}

test("only the declared fields are sent, in the declared order, nested objects and arrays too", async () => {
  const response = await serve().app.request("/post");
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.ok(!text.includes("secret") && !text.includes("email") && !text.includes("internalNotes"), text);
  assert.deepEqual(JSON.parse(text), {
    title: "T",
    tags: ["a"],
    author: { id: 1, name: "Ada" },
    coauthors: [
      { id: 1, name: "Ada" },
      { id: 2, name: "Ada" },
    ],
    editor: null,
    at: "2026-11-26T00:00:00.000Z",
    size: 3,
    extra: { a: 1 },
  });
  assert.equal(text.indexOf('"title"'), 1, "the declared order");
});

test("a view without a schema sends what its renderer returns", async () => {
  const app = createApp();
  const View = defineView({ json: (data: Data) => data });
  app.get("/", defineEndpoint({ call: () => View(user) }));
  assert.deepEqual(await (await app.request("/")).json(), user);
});

test("strict: an undeclared field is a 500 naming it (logged, never sent)", async () => {
  const { app, logged } = serve(true);
  const response = await app.request("/post", { headers: { accept: "application/json" } });
  assert.equal(response.status, 500);
  assert.ok(!(await response.text()).includes("passwordHash"));
  assert.match(
    logged.join("\n"),
    /undeclared fields: internalNotes, author\.passwordHash, author\.email, coauthors\[0\]\.passwordHash/,
  );
});

test("strict: a value the schema refuses is a 500 naming where; a fitting one is sent", async () => {
  const { app, logged } = serve(true);
  assert.equal((await app.request("/wrong")).status, 500);
  assert.match(logged.join("\n"), /does not fit its schema: title: expected string/);
  const good = await app.request("/good");
  assert.equal(good.status, 200);
  assert.deepEqual(await good.json(), { title: "T", tags: [], author: { id: 1, name: "A" }, coauthors: [] });
});

test("strict needs a schema, and is a boolean", () => {
  assert.throws(() => defineView({ strict: true, json: (d: Data) => d } as never), /strict/);
  assert.throws(() => defineView({ schema: Schema, strict: "yes", json: (d: Data) => d } as never), /strict/);
});
