// Type tests: checked by `tsc -p tests` (part of `npm test`), never executed. Each `Expect<Equal<…>>`
// fails the build when inference changes, and each `@ts-expect-error` fails it when an error disappears.
import * as v from "valibot";
import {
  type Context,
  createApp,
  defineChannel,
  defineEndpoint,
  defineError,
  defineView,
  type HttpError,
  type SocketMessage,
  t,
} from "../../src/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const UserView = defineView({
  json: (u: { id: number; name: string }) => u,
  text: (u) => `${u.id} ${u.name}`,
});
UserView({ id: 1, name: "Ada" });
// @ts-expect-error the view's data is inferred from its renderers
UserView({ id: "1", name: "Ada" });

const Shared = defineError("Shared", 409, {
  payload: { id: t.int32() },
  message: (p) => `conflict on ${p.id}`,
});
const Plain = defineError("Plain", 400);

export const Full = defineEndpoint({
  params: {
    path: { id: t.int32() },
    query: {
      offset: v.optional(t.int32()),
      limit: v.optional(t.int32(), 10),
      tags: v.optional(t.array(t.string()), []),
      since: v.optional(t.date()),
      big: t.int64(),
      flag: v.optional(t.bool()),
      alias: t.key("user_id", t.float()),
      page: { size: t.int32() },
      maybe: v.optional(t.group({ x: t.string() })),
    },
    form: { user: { name: v.string() } },
    json: t.body({ user: { name: v.string(), email: v.string() } }, { require: true }),
  },
  errors: {
    UserNotFound: 404,
    Gone: { code: 410, message: "left" },
    Invalid: { code: 422, payload: { field: v.string() }, message: (p) => `Invalid ${p.field}` },
    Shared,
    Plain,
  },
  before: [
    (ep) => {
      type _path = Expect<Equal<typeof ep.params.path, { id: number }>>;
    },
  ],
  call(ep) {
    const query = ep.params.query;
    type _id = Expect<Equal<typeof ep.params.path.id, number>>;
    type _offset = Expect<Equal<typeof query.offset, number | undefined>>;
    type _limit = Expect<Equal<typeof query.limit, number>>;
    type _tags = Expect<Equal<typeof query.tags, string[]>>;
    type _since = Expect<Equal<typeof query.since, Date | undefined>>;
    type _big = Expect<Equal<typeof query.big, bigint>>;
    type _flag = Expect<Equal<typeof query.flag, boolean | undefined>>;
    type _alias = Expect<Equal<typeof query.alias, number>>;
    type _page = Expect<Equal<typeof query.page, { size: number }>>;
    type _maybe = Expect<Equal<typeof query.maybe, { x: string } | undefined>>;
    // Not required: the form may be absent.
    type _form = Expect<Equal<typeof ep.params.form, { user: { name: string } } | undefined>>;
    // Required: never undefined.
    type _json = Expect<Equal<typeof ep.params.json, { user: { name: string; email: string } }>>;
    type _context = Expect<Equal<typeof ep.context, Context>>;

    new ep.errors.UserNotFound();
    new ep.errors.Gone();
    new ep.errors.Plain();
    const invalid = new ep.errors.Invalid({ field: "email" });
    type _payload = Expect<Equal<typeof invalid.payload, { field: string }>>;
    type _error = Expect<Equal<typeof invalid, HttpError<{ field: string }>>>;
    new ep.errors.Shared({ id: 1 });
    // @ts-expect-error the declared payload is required
    new ep.errors.Invalid();
    // @ts-expect-error exactly the declared payload
    new ep.errors.Invalid({ field: "x", extra: 1 });
    // @ts-expect-error the payload's types are checked
    new ep.errors.Invalid({ field: 1 });
    // @ts-expect-error an error without a payload takes none
    new ep.errors.UserNotFound({ field: "x" });
    // @ts-expect-error undeclared errors do not exist
    new ep.errors.Missing();
    // @ts-expect-error undeclared sources do not exist
    ep.params.nope;
    ep.status(201);
    ep.header("x", "y");
    ep.redirect("/elsewhere", 303);
    return UserView({ id: ep.params.path.id, name: ep.params.json.user.name });
  },
});

export const PathOnly = defineEndpoint({
  params: { path: { id: t.int32() } },
  call(ep) {
    // @ts-expect-error only declared sources exist
    ep.params.query;
    // @ts-expect-error a path param is what its schema says
    const wrong: string = ep.params.path.id;
    void wrong;
  },
});

// `call` returns a view, a Response or nothing: a plain object (a forgotten view) does not compile.
export const ReturnsObject = defineEndpoint({
  params: { path: { id: t.int32() } },
  // @ts-expect-error a plain object is not a view
  call(ep) {
    return { id: ep.params.path.id };
  },
});
export const ReturnsObjectLater = defineEndpoint({
  // @ts-expect-error nor is a promise of one
  async call() {
    return { id: 1 };
  },
});
export const ReturnsResponse = defineEndpoint({ call: () => new Response("ok") });
export const ReturnsNothing = defineEndpoint({ async call() {} });

export const NoParams = defineEndpoint({
  call(ep) {
    // @ts-expect-error `params` exists only when declared
    ep.params;
    // @ts-expect-error no errors were declared
    new ep.errors.Any();
  },
});

export const SchemaSource = defineEndpoint({
  params: { query: v.object({ q: v.string(), n: v.optional(v.number(), 1) }) },
  call(ep) {
    type _query = Expect<Equal<typeof ep.params.query, { q: string; n: number }>>;
  },
});

export const OptionalJson = defineEndpoint({
  params: { json: t.body({ a: t.int32() }) },
  call(ep) {
    type _json = Expect<Equal<typeof ep.params.json, { a: number } | undefined>>;
  },
});

// The errors of an endpoint are classes: instanceof narrows.
export function classify(error: unknown): string {
  if (error instanceof Full.errors.Invalid) {
    type _narrowed = Expect<Equal<typeof error.payload, { field: string }>>;
    return error.payload.field;
  }
  return "other";
}

export const Chat = defineChannel({
  params: { path: { room: v.string() } },
  errors: { Full: 4090 },
  onOpen(ch) {
    type _room = Expect<Equal<typeof ch.params.path.room, string>>;
    throw new ch.errors.Full();
  },
  onMessage(ch, message) {
    type _message = Expect<Equal<typeof message, SocketMessage>>;
    ch.send(message);
  },
  onClose(_ch, code, reason) {
    type _close = Expect<Equal<[typeof code, typeof reason], [number, string]>>;
  },
});

// Apps carry the type of their environment into every handler.
const app = createApp<{ DB: string }>();
app.get("/", (ctx) => {
  type _env = Expect<Equal<typeof ctx.env, { DB: string }>>;
});
app.get("/users/:id", Full);
app.ws("/chat/:room", Chat);
// @ts-expect-error a channel is not an HTTP handler
app.get("/chat", Chat);
// @ts-expect-error an endpoint is not a websocket handler
app.ws("/full", Full);

// A declared error's payload is entries of schemas: anything else is refused at the declaration.
defineEndpoint({
  errors: {
    // @ts-expect-error a payload of plain values, not schemas
    Bad: { code: 422, payload: { field: "oops" } },
  },
  call: () => {},
});
defineEndpoint({
  errors: {
    // @ts-expect-error a schema where entries are expected
    Bad: { code: 422, payload: v.string() },
  },
  call: () => {},
});
defineEndpoint({
  errors: { Fine: { code: 422, payload: { field: v.string() }, message: (p) => p.field } },
  call: (ep) => {
    const error = new ep.errors.Fine({ field: "x" });
    type _payload = Expect<Equal<typeof error.payload, { field: string }>>;
  },
});

// A strict view: `strict` is a boolean beside a schema; the renderer's return type still checked.
const StrictView = defineView({
  schema: v.object({ id: v.number() }),
  strict: true,
  json: (u: { id: number; secret: string }) => u,
  text: (u) => String(u.id),
});
type _strictView = Expect<Equal<ReturnType<typeof StrictView>["~json"], { id: number } | undefined>>;
defineView({
  schema: v.object({ id: v.number() }),
  // @ts-expect-error strict is true or false
  strict: "yes",
  json: (u: { id: number }) => u,
});

// Declared messages: `in` typed in onMessage (the output), `out` typed in send (the input).
export const Typed = defineChannel({
  params: { headers: { "x-user": v.string() } },
  messages: {
    in: v.variant("type", [
      v.object({ type: v.literal("say"), text: v.string() }),
      v.object({ type: v.literal("leave") }),
    ]),
    out: { from: v.string(), at: t.date() },
  },
  onMessage(ch, message) {
    type _in = Expect<Equal<typeof message, { type: "say"; text: string } | { type: "leave" }>>;
    type _user = Expect<Equal<(typeof ch.params.headers)["x-user"], string>>;
    if (message.type === "say") ch.send({ from: message.text, at: "2024-01-01" });
    // @ts-expect-error a field the out message lacks
    ch.send({ from: "a", at: "2024-01-01", extra: 1 });
    // @ts-expect-error raw text is not a declared message
    ch.send("raw");
  },
  onInvalidMessage(ch, invalid) {
    type _invalid = Expect<Equal<typeof invalid.message, string>>;
    ch.close(1007, invalid.message);
  },
});

// A whole Standard Schema (zod here) as a source, not only as entries: the README's zod sample.
import { z } from "zod";

defineEndpoint({
  params: { json: z.object({ name: z.string(), tags: z.array(z.string()).optional() }) },
  call(ep) {
    const typed: Expect<
      Equal<typeof ep.params.json, { name: string; tags?: string[] | undefined } | undefined>
    > = true;
    void typed;
    return new Response(ep.params.json?.name);
  },
});
