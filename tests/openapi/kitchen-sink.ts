// An app that uses every declaration the document can carry, for the third-party validators: params
// from all six sources (nested query groups, a form with files and a nested group, headers, cookies),
// several views, errors with payloads, middleware errors, security (required and optional), headers and
// answers declared by middleware and by `doc`, a custom method, paths that differ only by parameter
// names, hidden and deprecated routes, tags with descriptions.
import * as v from "valibot";
import { csrf, declaring, etag } from "../../src/middleware/mod.ts";
import {
  createApp,
  defineChannel,
  defineEndpoint,
  defineError,
  defineRoutes,
  defineView,
  html,
  t,
} from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";

const Unauthorized = defineError("Unauthorized", 401, { message: "Sign in first" });
const signedIn = (optional: boolean) =>
  declaring(
    (ctx, next) => {
      if (!optional && !ctx.request.header("authorization")) throw new Unauthorized();
      return next();
    },
    {
      errors: { Unauthorized },
      security: { schemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } }, optional },
    },
  );

const Item = defineView({
  schema: v.object({
    id: v.number(),
    name: v.pipe(v.string(), v.examples(["lamp"])),
    tags: v.array(v.string()),
  }),
  json: (item: { id: number; name: string; tags: string[] }) => item,
  html: (item: { id: number; name: string }) => html`<h1>${item.name}</h1>`,
});
const Summary = defineView({
  schema: v.object({ count: v.number() }),
  json: (count: number) => ({ count }),
});
const NotFound = defineError("ItemNotFound", 404, {
  payload: { id: t.int32() },
  message: (p) => `No item ${p.id}`,
});

const Search = defineEndpoint({
  doc: { description: "Items matching a filter.", tags: ["items"] },
  params: {
    query: {
      q: v.optional(v.string()),
      page: v.optional(t.group({ size: v.optional(t.int32(), 10), after: v.optional(t.int64()) })),
      tags: v.optional(t.array(v.string())),
    },
    headers: { "x-client-version": v.optional(t.int32()) },
    cookies: { theme: v.optional(v.picklist(["dark", "light"])) },
  },
  view: [Item, Summary],
  call: () => Summary(0),
});
const GetItem = defineEndpoint({
  doc: { description: "One item.", tags: ["items"] },
  params: { path: { id: t.int32() } },
  errors: { ItemNotFound: NotFound },
  view: Item,
  call: (ep) => {
    if (ep.params.path.id !== 1) throw new ep.errors.ItemNotFound({ id: ep.params.path.id });
    return Item({ id: 1, name: "lamp", tags: [] });
  },
});
const Upload = defineEndpoint({
  doc: {
    description: "Adds an item with its photos.",
    tags: ["items"],
    headers: { Location: "The new item" },
  },
  params: {
    form: {
      item: { name: v.pipe(v.string(), v.minLength(1)), price: t.float() },
      photo: t.file({ maxSize: 1024 * 1024, types: ["image/png", "image/jpeg"] }),
      more: v.optional(v.array(t.file({ types: ["image/*"] }))),
    },
  },
  errors: { Duplicate: { code: 409, payload: { name: v.string() } } },
  view: Item,
  status: 201,
  call: (ep) => Item({ id: 2, name: ep.params.form?.item.name ?? "", tags: [] }),
});
const Replace = defineEndpoint({
  doc: { description: "Replaces an item.", tags: ["items"], deprecated: true },
  params: {
    path: { key: t.int64() },
    json: t.body({ name: v.string(), tags: v.array(v.string()) }, { require: true }),
  },
  view: Item,
  call: (ep) =>
    Item({ id: Number(ep.params.path.key), name: ep.params.json.name, tags: ep.params.json.tags }),
});

export const routes = defineRoutes(
  {
    searchItems: ["GET", "/items", Search],
    getItem: ["GET", "/items/:id", GetItem],
    addItem: ["POST", "/items", Upload],
    replaceItem: ["PUT", "/items/:key", Replace],
    watchItem: [
      "WS",
      "/items/:id/watch",
      defineChannel({
        doc: { description: "Follows an item's price." },
        params: { path: { id: t.int32() } },
        errors: { Gone: 4410 },
        messages: { in: { stop: v.boolean() }, out: { price: t.float() } },
      }),
    ],
  },
  { use: [csrf(), etag()], doc: { tags: ["shop"] } },
);

export const app = createApp();
app.on("/shop", (r) => {
  r.use(signedIn(true));
  r.mount("/", routes);
});
app.on(
  "/account",
  (r) => {
    r.use(signedIn(false));
    r.get("/me", () => Response.json({ name: "ada" }), {
      name: "getMe",
      doc: {
        description: "Who is signed in.",
        responses: { 200: { description: "The user", mediaTypes: ["application/json"] } },
      },
    });
    r.get("/old", () => new Response(null, { status: 302, headers: { location: "/account/me" } }), {
      name: "getOldMe",
      doc: {
        description: "Moved.",
        responses: { 302: { description: "Moved", headers: { Location: "Where" } } },
      },
    });
    r.route("PROPFIND", "/files", () => new Response(null, { status: 207 }), {
      name: "listFiles",
      doc: { description: "WebDAV listing.", responses: { 207: "Multi-status" } },
    });
    r.get("/internal", () => new Response("hidden"), { doc: { hidden: true } });
  },
  { doc: { tags: ["account"] } },
);

export const document = openapi(app, {
  info: {
    title: "Kitchen sink",
    version: "1.0.0",
    description: "Every declaration the document carries.",
    contact: { name: "The Portico maintainers" },
    license: { name: "MIT", identifier: "MIT" },
  },
  servers: [{ url: "/" }],
  tags: [
    { name: "shop", description: "Things for sale" },
    { name: "items", description: "One thing" },
    { name: "account", description: "Who you are" },
  ],
});
