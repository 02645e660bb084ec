// The four scenarios, and the contract every contestant must meet before it is loaded.
import assert from "node:assert/strict";
import { join } from "node:path";
import { root } from "./contestants.ts";

/** One load scenario: what wrk requests. */
export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly path: string;
  readonly script?: string;
  /** Request headers wrk sends (`-H`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The contestants (by name) that implement it; every one when absent. */
  readonly onlyFor?: readonly string[];
  /** Its answer is an error status by design (not counted as an error). */
  readonly expectsError?: boolean;
}

export const scenarios: readonly Scenario[] = [
  { id: "S1", title: "GET / → text", path: "/" },
  { id: "S2", title: "GET /users/:id → JSON", path: "/users/42" },
  { id: "S3", title: "GET /search?offset&limit → JSON", path: "/search?offset=10&limit=20" },
  {
    id: "S4",
    title: "POST /users JSON → 201",
    path: "/users",
    script: join(root, "bench", "wrk", "post-user.lua"),
  },
  {
    id: "S5",
    title: "GET /s5/items/:id → 404 JSON through logger, CORS, secure headers",
    path: "/s5/items/7",
    headers: { origin: "https://app.example", accept: "application/json" },
    onlyFor: ["Portico", "Hono", "Hono + requestId", "Fastify"],
    expectsError: true,
  },
];

/** Checks that a server answers S5 as the others do: the declared 404 in JSON, with CORS and security headers. */
export async function checkS5(origin: string): Promise<void> {
  const res = await fetch(`${origin}/s5/items/7`, {
    headers: { origin: "https://app.example", accept: "application/json" },
  });
  assert.equal(res.status, 404, "S5 status");
  const body = (await res.json()) as { error: { payload: { id: number } } };
  assert.deepEqual(body.error.payload, { id: 7 }, "S5 payload");
  assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example", "S5 CORS");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff", "S5 secure headers");
  assert.ok(res.headers.get("strict-transport-security"), "S5 HSTS");
}

async function call(origin: string, path: string, init?: RequestInit): Promise<[number, string]> {
  const res = await fetch(origin + path, init);
  return [res.status, await res.text()];
}

const post = (body: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body,
});

/** Checks that a server implements the four scenarios identically (and rejects bad input with 400). */
export async function checkContract(origin: string): Promise<void> {
  assert.deepEqual(await call(origin, "/"), [200, "Hello World"], "S1");
  const [s2, user] = await call(origin, "/users/42");
  assert.deepEqual([s2, JSON.parse(user)], [200, { id: 42, name: "user42" }], "S2");
  assert.equal((await call(origin, "/users/abc"))[0], 400, "S2 rejects a non-integer id");
  const [s3, search] = await call(origin, "/search?offset=10&limit=20");
  assert.deepEqual([s3, JSON.parse(search)], [200, { offset: 10, limit: 20 }], "S3");
  const [s3d, defaults] = await call(origin, "/search");
  assert.deepEqual([s3d, JSON.parse(defaults)], [200, { limit: 10 }], "S3 default limit, no offset");
  assert.equal((await call(origin, "/search?limit=x"))[0], 400, "S3 rejects a non-integer limit");
  const [s4, created] = await call(
    origin,
    "/users",
    post('{"user":{"name":"Ada","email":"ada@example.com"}}'),
  );
  assert.deepEqual([s4, JSON.parse(created)], [201, { name: "Ada", email: "ada@example.com" }], "S4");
  assert.equal(
    (await call(origin, "/users", post('{"user":{"name":1}}')))[0],
    400,
    "S4 rejects an invalid user",
  );
  assert.equal((await call(origin, "/users", post("{bad")))[0], 400, "S4 rejects malformed JSON");
}
