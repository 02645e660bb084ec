// CPU per request without a network: each app's `fetch` called in a loop with the scenario's request,
// the body read. What the framework costs on this runtime, free of loopback and load-generator noise
// (a shared 2-core machine spreads wrk runs by 35 %; these spread by a few). Run on each runtime:
//   npx tsx bench/inproc.ts          (Node: Portico loaded compiled from dist/; `npm run build` first)
//   .runtimes/node_modules/.bin/bun bench/inproc.ts
//   node_modules/.bin/deno run -A bench/inproc.ts
// Apps as their users write them, validating: Portico as ../shared/bench-independent writes it (S1
// sets its content type), Hono with @hono/valibot-validator, Elysia with its own schemas (Bun), and a
// hand-written fetch handler as the floor.
import { vValidator } from "@hono/valibot-validator";
import { Hono } from "hono";
import * as v from "valibot";

const g = globalThis as { Bun?: unknown; Deno?: unknown };
const runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const source = process.env.PORTICO_SOURCE === "1" || runtime !== "node";
const portico = (await import(source ? "../src/mod.ts" : "../dist/mod.js")) as typeof import("../src/mod.ts");

type Fetch = (request: Request) => Response | Promise<Response>;

function porticoApp(): Fetch {
  const { createApp, defineEndpoint, defineView, t } = portico;
  const Json = defineView({ json: (data: object) => data });
  const app = createApp();
  app.get("/", (ctx) => {
    ctx.response.headers.set("content-type", "text/plain");
    ctx.response.write("Hello World");
  });
  app.get(
    "/users/:id",
    defineEndpoint({
      params: { path: { id: t.int32() } },
      call: (ep) => Json({ id: ep.params.path.id, name: `user${ep.params.path.id}` }),
    }),
  );
  app.get(
    "/search",
    defineEndpoint({
      params: { query: { offset: v.optional(t.int32()), limit: v.optional(t.int32(), 10) } },
      call: (ep) => Json({ offset: ep.params.query.offset, limit: ep.params.query.limit }),
    }),
  );
  app.post(
    "/users",
    defineEndpoint({
      params: { json: t.body({ user: { name: v.string(), email: v.string() } }, { require: true }) },
      call: (ep) => {
        ep.status(201);
        return Json(ep.params.json.user);
      },
    }),
  );
  return (request) => app.fetch(request);
}

const IntString = v.pipe(v.string(), v.regex(/^-?\d+$/), v.transform(Number));

function honoApp(): Fetch {
  const app = new Hono();
  app.get("/", (c) => c.text("Hello World"));
  app.get("/users/:id", vValidator("param", v.object({ id: IntString })), (c) => {
    const { id } = c.req.valid("param");
    return c.json({ id, name: `user${id}` });
  });
  app.get(
    "/search",
    vValidator("query", v.object({ offset: v.optional(IntString), limit: v.optional(IntString, "10") })),
    (c) => c.json(c.req.valid("query")),
  );
  app.post(
    "/users",
    vValidator("json", v.object({ user: v.object({ name: v.string(), email: v.string() }) })),
    (c) => c.json(c.req.valid("json").user, 201),
  );
  return (request) => app.fetch(request);
}

async function elysiaApp(): Promise<Fetch | undefined> {
  if (runtime !== "bun") return undefined;
  const { Elysia, t } = await import("elysia");
  const app = new Elysia()
    .get("/", () => "Hello World")
    .get("/users/:id", ({ params: { id } }) => ({ id, name: `user${id}` }), {
      params: t.Object({ id: t.Integer() }),
    })
    .get("/search", ({ query }) => query, {
      query: t.Object({ offset: t.Optional(t.Integer()), limit: t.Integer({ default: 10 }) }),
    })
    .post(
      "/users",
      ({ body, set }) => {
        set.status = 201;
        return body.user;
      },
      { body: t.Object({ user: t.Object({ name: t.String(), email: t.String() }) }) },
    );
  return (request) => app.handle(request);
}

const TEXT = { "content-type": "text/plain; charset=UTF-8" };
const JSON_TYPE = { "content-type": "application/json" };

// The floor: a hand-written handler doing the same work (no validation library).
function rawApp(): Fetch {
  return async (request) => {
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", start);
    const path = q < 0 ? url.slice(start) : url.slice(start, q);
    if (request.method === "POST") {
      const body = (await request.json()) as { user: { name: string; email: string } };
      return new Response(JSON.stringify(body.user), { status: 201, headers: JSON_TYPE });
    }
    if (path === "/") return new Response("Hello World", { headers: TEXT });
    if (path === "/search") {
      const query = new URLSearchParams(url.slice(q + 1));
      const out = { offset: Number(query.get("offset")), limit: Number(query.get("limit") ?? 10) };
      return new Response(JSON.stringify(out), { headers: JSON_TYPE });
    }
    const id = Number(path.slice(7));
    return new Response(JSON.stringify({ id, name: `user${id}` }), { headers: JSON_TYPE });
  };
}

const ORIGIN = "http://127.0.0.1:3000";
const scenarios: { id: string; request: () => Request; status: number }[] = [
  { id: "S1", request: () => new Request(`${ORIGIN}/`), status: 200 },
  { id: "S2", request: () => new Request(`${ORIGIN}/users/12345`), status: 200 },
  { id: "S3", request: () => new Request(`${ORIGIN}/search?offset=10&limit=20`), status: 200 },
  {
    id: "S4",
    request: () =>
      new Request(`${ORIGIN}/users`, {
        method: "POST",
        // As a client sends it over HTTP/1.1: with its length (a constructed Request has none).
        headers: { "content-type": "application/json", "content-length": "33" },
        body: '{"user":{"name":"x","email":"y"}}',
      }),
    status: 201,
  },
];

const apps: [string, Fetch][] = [
  ["raw fetch", rawApp()],
  ["portico", porticoApp()],
  ["hono", honoApp()],
];
const elysia = await elysiaApp();
if (elysia) apps.push(["elysia", elysia]);

// Batches of requests, apps interleaved, the median batch kept: each figure includes the garbage
// collection its allocations cause (a per-call timer leaves most of it to whichever call it lands on).
const BATCH = Number(process.env.BATCH ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const only = process.env.ONLY?.split(",");
const rows: string[] = [];
for (const scenario of scenarios) {
  if (only && !only.includes(scenario.id)) continue;
  const times = new Map<string, number[]>(apps.map(([name]) => [name, []]));
  for (let round = -1; round < ROUNDS; round++) {
    for (const [name, fetch] of apps) {
      const start = performance.now();
      for (let i = 0; i < BATCH; i++) {
        const response = await fetch(scenario.request());
        if (response.status !== scenario.status)
          throw new Error(`${name} ${scenario.id}: ${response.status}`);
        await response.text();
      }
      // The first round warms up.
      if (round >= 0) times.get(name)!.push(((performance.now() - start) * 1000) / BATCH);
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const floor = median(times.get("raw fetch")!);
  for (const [name, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    rows.push(
      `| ${runtime} | ${scenario.id} | ${name} | ${median(list).toFixed(2)} [${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}] | ${(median(list) / floor).toFixed(2)}× |`,
    );
  }
}
console.log("| runtime | scenario | app | µs per request, median [min–max] | ÷ raw fetch |");
console.log("|---|---|---|---:|---:|");
for (const row of rows) console.log(row);
