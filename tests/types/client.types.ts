// Type tests for declared views, endpoint `view`/`status`, routes and the typed client: checked by
// `tsc -p tests`, never executed.
import * as v from "valibot";
import type { api } from "../../examples/api/app.ts";
import { createClient } from "../../src/client/mod.ts";
import { csrf } from "../../src/middleware/mod.ts";
import { defineChannel, defineEndpoint, defineError, defineRoutes, defineView, t } from "../../src/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// A view's JSON renderer must return the declared shape.
const Item = defineView({
  schema: v.object({ id: v.number(), label: v.string() }),
  json: (item: { id: number; name: string }) => ({ id: item.id, label: item.name }),
});
// @ts-expect-error the JSON rendering does not match the schema (id is a string)
defineView({
  schema: v.object({ id: v.number() }),
  json: (item: { id: number }) => ({ id: String(item.id) }),
});
// @ts-expect-error a required field of the schema is missing
defineView({
  schema: v.object({ id: v.number(), label: v.string() }),
  json: (item: { id: number }) => ({ id: item.id }),
});
const Other = defineView({
  schema: v.object({ other: v.boolean() }),
  json: (flag: boolean) => ({ other: flag }),
});

// With `view` declared, `call` returns only that view, a Response or nothing.
defineEndpoint({ view: Item, call: () => Item({ id: 1, name: "a" }) });
defineEndpoint({ view: Item, call: () => new Response("raw") });
defineEndpoint({ view: Item, call: () => {} });
defineEndpoint({ view: [Item, Other], call: async () => Other(true) });
// @ts-expect-error a plain object is not a declared view
defineEndpoint({ view: Item, call: () => ({ id: 1, label: "a" }) });
// @ts-expect-error another view than the declared one
defineEndpoint({ view: Item, call: () => Other(true) });

const client = createClient<typeof api>({ baseUrl: "http://localhost:3000/api" });

async function calls(): Promise<void> {
  const user = await client.getUser({ path: { id: 1 } });
  if (user.ok) {
    type _data = Expect<Equal<typeof user.data, { id: number; name: string; email: string; joined: string }>>;
  } else {
    type _names = Expect<
      Equal<
        typeof user.error.name,
        "UserNotFound" | "PathParamsError" | "CrossSiteRequestRefused" | "PayloadTooLarge" | "HttpError"
      >
    >;
    if (user.error.name === "UserNotFound") {
      type _payload = Expect<Equal<typeof user.error.payload, { id: number }>>;
      // @ts-expect-error a wrong payload field
      user.error.payload.email;
    }
    if (user.error.name === "PathParamsError") user.error.payload.issues[0]?.message;
    // @ts-expect-error an undeclared error name
    if (user.error.name === "PostNotFound") return;
  }
  // @ts-expect-error reading data without checking ok
  user.data;

  // @ts-expect-error a wrong input type (id is a number)
  await client.getUser({ path: { id: "1" } });
  // @ts-expect-error a missing required param
  await client.getUser({});
  // @ts-expect-error a missing input
  await client.getUser();
  // @ts-expect-error an unknown route name
  await client.getUsers;

  // Optional query values may be left out; input types are what a caller sends (a date as a string).
  await client.listUsers();
  await client.listUsers({ query: { limit: 5, filter: { joinedAfter: "2024-01-01" } } });
  // @ts-expect-error limit is an integer, not a string
  await client.listUsers({ query: { limit: "5" } });

  const created = await client.createUser({ json: { user: { name: "Ada", email: "a@b.c" } } });
  if (!created.ok && created.error.name === "EmailTaken") {
    type _payload = Expect<Equal<typeof created.error.payload, { email: string }>>;
  }
  // @ts-expect-error the JSON body is required (t.body(…, { require: true }))
  await client.createUser({});
  // Form or JSON: both optional.
  await client.createPost({ path: { id: 1 }, form: { post: { title: "T", body: "B" } } });
}
void calls;

// Routes defined with middleware: its declared errors join every route's union.
const Shared = defineError("Shared", 409, { payload: { id: t.int32() } });
const Ping = defineEndpoint({ errors: { Shared }, call: () => {} });
const small = defineRoutes({ ping: ["POST", "/ping", Ping] }, { use: [csrf()] });
const smallClient = createClient<typeof small>({ baseUrl: "http://x", routes: small });
async function smallCalls(): Promise<void> {
  const res = await smallClient.ping();
  if (!res.ok) {
    type _names = Expect<Equal<typeof res.error.name, "Shared" | "CrossSiteRequestRefused" | "HttpError">>;
    if (res.error.name === "Shared") {
      type _payload = Expect<Equal<typeof res.error.payload, { id: number }>>;
    }
  }
  // @ts-expect-error an endpoint without params takes no path
  await smallClient.ping({ path: { id: 1 } });
}
void smallCalls;

// Standard Schema entries (zod, arktype): params inferred from their output, client inputs from their input.
import { type as ark } from "arktype";
import { z } from "zod";

const Mixed = defineEndpoint({
  params: {
    path: { id: z.number().int() },
    query: {
      limit: z.number().optional(),
      tag: ark("string"),
      since: ark("string | undefined"),
      page: v.optional(t.int32()),
    },
  },
  call(ep) {
    type _path = Expect<Equal<typeof ep.params.path, { id: number }>>;
    type _limit = Expect<Equal<typeof ep.params.query.limit, number | undefined>>;
    type _tag = Expect<Equal<typeof ep.params.query.tag, string>>;
    type _page = Expect<Equal<typeof ep.params.query.page, number | undefined>>;
    // @ts-expect-error a required zod value is not optional
    ep.params.path.id satisfies undefined;
  },
});
const mixed = defineRoutes({ mixed: ["GET", "/m/:id", Mixed] });
const mixedClient = createClient<typeof mixed>({ baseUrl: "http://x", routes: mixed });
async function mixedCalls(): Promise<void> {
  await mixedClient.mixed({ path: { id: 1 }, query: { tag: "a" } });
  // @ts-expect-error tag (arktype, required) is missing
  await mixedClient.mixed({ path: { id: 1 }, query: {} });
  // @ts-expect-error id (zod number) is not a string
  await mixedClient.mixed({ path: { id: "1" }, query: { tag: "a" } });
}
void mixedCalls;

// Files: t.file() is a File, t.file({ stream: true }) a StreamedFile; the client takes Blobs.
const Upload = defineEndpoint({
  params: {
    form: t.body({ title: v.string(), avatar: t.file(), data: t.file({ stream: true }) }, { require: true }),
  },
  call(ep) {
    type _avatar = Expect<Equal<typeof ep.params.form.avatar, File>>;
    type _data = Expect<Equal<ReturnType<typeof ep.params.form.data.stream>, ReadableStream<Uint8Array>>>;
  },
});
const uploads = defineRoutes({ upload: ["POST", "/u", Upload] });
const uploadClient = createClient<typeof uploads>({ baseUrl: "http://x", routes: uploads });
async function uploadCalls(): Promise<void> {
  const file = new File(["x"], "x.bin");
  await uploadClient.upload({ form: { title: "t", avatar: file, data: file } });
  // A Blob is taken too (sent as a part named "blob").
  const blob = new Blob(["x"], { type: "application/octet-stream" });
  await uploadClient.upload({ form: { title: "t", avatar: blob, data: blob } });
  // @ts-expect-error a string is not a file
  await uploadClient.upload({ form: { title: "t", avatar: "x", data: file } });
}
void uploadCalls;

// t.group(): its fields are typed on the caller's side too, not `unknown`.
const ListUsers = defineEndpoint({
  params: {
    query: {
      filter: v.optional(t.group({ role: t.string(), since: v.optional(t.int32()) })),
      page: v.optional(t.int32()),
    },
  },
  call(ep) {
    type _filter = Expect<Equal<typeof ep.params.query.filter, { role: string; since?: number } | undefined>>;
  },
});
const listing = defineRoutes({ listUsers: ["GET", "/users", ListUsers] });
const listingClient = createClient<typeof listing>({ baseUrl: "http://x", routes: listing });
async function groupCalls(): Promise<void> {
  await listingClient.listUsers({ query: { filter: { role: "admin" } } });
  await listingClient.listUsers({ query: { filter: { role: "admin", since: 3 }, page: 2 } });
  await listingClient.listUsers({});
  // @ts-expect-error a group is an object, not a number
  await listingClient.listUsers({ query: { filter: 42 } });
  // @ts-expect-error a group's required field is required
  await listingClient.listUsers({ query: { filter: { since: 3 } } });
  // @ts-expect-error a group's field has its type
  await listingClient.listUsers({ query: { filter: { role: 7 } } });
}
void groupCalls;

// Header and cookie params: typed in the endpoint as declared, sent by the client as their inputs.
const WithHeaders = defineEndpoint({
  params: {
    headers: { "X-Api-Key": v.string(), "x-version": v.optional(t.int32()) },
    cookies: { theme: v.optional(v.picklist(["dark", "light"])) },
  },
  call: ({ params }) => {
    type _key = Expect<Equal<(typeof params.headers)["X-Api-Key"], string>>;
    type _version = Expect<Equal<(typeof params.headers)["x-version"], number | undefined>>;
    type _theme = Expect<Equal<typeof params.cookies.theme, "dark" | "light" | undefined>>;
  },
});
const headed = createClient<ReturnType<typeof headedRoutes>>({ baseUrl: "http://localhost/" });
function headedRoutes() {
  return defineRoutes({ whoami: ["GET", "/whoami", WithHeaders] });
}
async function headerCalls(): Promise<void> {
  // Declared headers are required when one is; others may go beside them.
  const result = await headed.whoami({ headers: { "X-Api-Key": "k", "x-version": 2, authorization: "x" } });
  if (!result.ok) {
    type _names = Expect<
      Equal<typeof result.error.name, "HeaderParamsError" | "CookieParamsError" | "HttpError">
    >;
  }
  // @ts-expect-error the required header is missing
  await headed.whoami({ headers: { "x-version": 2 } });
  // @ts-expect-error a header of the wrong type
  await headed.whoami({ headers: { "X-Api-Key": "k", "x-version": "two" } });
  // @ts-expect-error a cookie value outside the declared ones
  await headed.whoami({ headers: { "X-Api-Key": "k" }, cookies: { theme: "blue" } });
}
void headerCalls;

// Middleware around the routes object: its errors join the union when its type is given.
const Locked423 = defineError("Locked", 423, { payload: { until: v.string() } });
const aroundRoutes = [
  csrf(),
  { errors: { Locked: Locked423 } } as unknown as ReturnType<typeof csrf> & {
    errors: { Locked: typeof Locked423 };
  },
] as const;
async function aroundCalls(): Promise<void> {
  const wrapped = createClient<typeof api, typeof aroundRoutes>({ baseUrl: "http://localhost:3000/api" });
  const user = await wrapped.getUser({ path: { id: 1 } });
  if (!user.ok) {
    type _has = Expect<Equal<Extract<typeof user.error.name, "Locked">, "Locked">>;
    if (user.error.name === "Locked") {
      type _payload = Expect<Equal<typeof user.error.payload, { until: string }>>;
    }
  }
  const plain = await client.getUser({ path: { id: 1 } });
  if (!plain.ok) {
    type _not = Expect<Equal<Extract<typeof plain.error.name, "Locked">, never>>;
  }
}
void aroundCalls;

// A channel routed as "WS": `connect`, typed messages both ways, closes naming the declared errors.
const RoomChannel = defineChannel({
  params: { path: { room: v.string() }, query: { limit: v.optional(t.int32()) } },
  errors: { RoomFull: 4090 },
  messages: { in: { text: v.string() }, out: { from: v.string(), at: v.number() } },
});
const socketRoutes = defineRoutes({
  room: ["WS", "/rooms/:room", RoomChannel],
  ping: ["POST", "/ping", Ping],
});
const sockets = createClient<typeof socketRoutes>({ baseUrl: "http://x" });
async function socketCalls(): Promise<void> {
  const room = sockets.room.connect({ path: { room: "a" }, query: { limit: 2 } });
  room.send({ text: "hi" });
  // @ts-expect-error a message the channel does not take
  room.send({ txt: "hi" });
  room.onMessage((message) => {
    message.from satisfies string;
    message.at satisfies number;
    // @ts-expect-error not in the out message
    message.text;
  });
  const closed = await room.closed;
  if (closed.error !== undefined) {
    type _names = Expect<Equal<typeof closed.error.name, "RoomFull" | "ParamsError" | "InvalidMessage">>;
  }
  // @ts-expect-error an HTTP route has no connect
  sockets.ping.connect();
  // @ts-expect-error the path value is a string
  sockets.room.connect({ path: { room: 1 } });
}
void socketCalls;
