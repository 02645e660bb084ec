// The app every runtime serves for the conformance suite. It uses only the public API.
import * as v from "valibot";
import {
  createApp,
  createRouter,
  defineChannel,
  defineEndpoint,
  defineError,
  defineView,
  t,
} from "../../src/mod.ts";

export const app = createApp({ logger: { error: () => {} } });

const Echo = defineView({
  json: (data: Record<string, unknown>) => data,
  text: (data) => JSON.stringify(data),
});
const UserView = defineView({
  json: (u: { id: number; name: string }) => u,
  text: (u) => `${u.id} ${u.name}`,
  html: (u) => `<p>${u.id} ${u.name}</p>`,
});

// Routing: every pattern form, precedence and namespaces.
app.get("/", (ctx) => {
  ctx.response.write("Hello World");
});
app.get("/empty", () => {});
app.get("/ignored", () => 42);
app.get("/written", (ctx) => {
  ctx.response.write("a");
  ctx.response.write("b");
  return "ignored";
});
app.get("/raw", () => new Response("raw body", { status: 203, headers: { "x-raw": "1" } }));
app.get("/users/:id", (ctx) => Echo({ route: "user", ...ctx.request.pathParams }));
// Registered after `/users/:id`, and still preferred: static segments beat parameters.
app.get("/users/new", (ctx) => {
  ctx.response.write("new user form");
});
app.post("/users", (ctx) => {
  ctx.response.status = 201;
  ctx.response.write("created");
});
app.get("/users/:id/posts/:post", (ctx) => Echo(ctx.request.pathParams));
app.get("/digits/:id(\\d+)", (ctx) => Echo({ route: "digits", ...ctx.request.pathParams }));
app.get("/digits/:slug", (ctx) => Echo({ route: "slug", ...ctx.request.pathParams }));
app.get("/lang/:lang?/docs", (ctx) => Echo({ route: "docs", ...ctx.request.pathParams }));
app.get("/opt/:name?", (ctx) => Echo({ route: "opt", ...ctx.request.pathParams }));
app.get("/files/*", (ctx) => Echo({ route: "files", ...ctx.request.pathParams }));
app.get("/report.json", (ctx) => {
  ctx.response.write("report");
});
app.get("/first/:a", (ctx) => Echo({ route: "first", ...ctx.request.pathParams }));
app.get("/first/:b(\\d+)", (ctx) => Echo({ route: "second", ...ctx.request.pathParams }));
app.route(["GET", "POST"], "/multi", (ctx) => {
  ctx.response.write(ctx.request.method);
});
app.all("/any", (ctx) => {
  ctx.response.write(`any ${ctx.request.method}`);
});
app.put("/items/:id", (ctx) => {
  ctx.response.write(`put ${ctx.request.pathParams.id}`);
});
app.delete("/items/:id", (ctx) => {
  ctx.response.status = 204;
});
app.head("/probe", (ctx) => {
  ctx.response.headers.set("x-probe", "head");
});
app.get("/probe", (ctx) => {
  ctx.response.write("probe body");
});
app.options("/custom-options", (ctx) => {
  ctx.response.status = 200;
  ctx.response.write("custom");
});
app.get("/context", (ctx) =>
  Echo({
    method: ctx.request.method,
    path: ctx.request.path,
    query: ctx.request.query,
    id: ctx.request.id,
    headers: ctx.request.headers instanceof Headers,
    raw: ctx.request.raw instanceof Request,
  }),
);
app.get("/cookies", (ctx) => {
  ctx.response.headers.append("set-cookie", "a=1; Path=/");
  ctx.response.headers.append("set-cookie", "b=2; Path=/");
});
app.get("/stream", () => {
  const encoder = new TextEncoder();
  let n = 0;
  return new Response(
    new ReadableStream({
      pull(controller) {
        if (n === 3) controller.close();
        else controller.enqueue(encoder.encode(`chunk${n++};`));
      },
    }),
    { headers: { "content-type": "text/plain" } },
  );
});
app.get("/boom", () => {
  throw new Error("secret detail");
});
const Failing = defineView({
  json: (): unknown => {
    throw new Error("renderer failed");
  },
});
app.get("/bad-view", () => Failing(undefined));
app.post("/read-body", async (ctx) => {
  ctx.response.write(`read ${(await ctx.request.raw.text()).length}`);
});

app.use(async (ctx, next) => {
  ctx.response.headers.set("x-app-middleware", "1");
  await next();
  if (ctx.error !== undefined) ctx.response.headers.set("x-saw-error", "1");
});

app.on("/ns", (r) => {
  r.use(async (ctx, next) => {
    ctx.response.headers.set("x-ns", "outer");
    await next();
  });
  r.get("/", (ctx) => {
    ctx.response.write("ns root");
  });
  r.on("/inner", (r) => {
    r.use((ctx, next) => {
      if (ctx.request.query === "deny=1") return new Response("denied", { status: 403 });
      return next();
    });
    r.get("/:x", (ctx) => Echo({ route: "inner", ...ctx.request.pathParams }));
  });
});

app.mount(
  "/admin",
  createRouter((r) => {
    r.use(async (ctx, next) => {
      ctx.response.headers.set("x-admin", "1");
      await next();
    });
    r.get("/", (ctx) => {
      ctx.response.write("admin home");
    });
    r.get("/users/:id", (ctx) => Echo({ route: "admin-user", ...ctx.request.pathParams }));
  }),
);

// Endpoints.
const users = new Map([[1, { id: 1, name: "Ada" }]]);
const UserGone = defineError("UserGone", 410, { message: "This user left" });

const GetUser = defineEndpoint({
  params: {
    path: { id: t.int32() },
    query: { offset: v.optional(t.int32()), limit: v.optional(t.int32(), 10) },
  },
  errors: {
    UserNotFound: 404,
    UserGone,
    Invalid: { code: 422, payload: { field: v.string() }, message: (p) => `Invalid ${p.field}` },
  },
  before: [(ep) => ep.header("X-Before", "1")],
  after: [(ep) => ep.header("X-After", String(ep.params.query.limit))],
  call(ep) {
    const id = ep.params.path.id;
    if (id === 410) throw new ep.errors.UserGone();
    if (id === 422) throw new ep.errors.Invalid({ field: "id" });
    const user = users.get(id);
    if (!user) throw new ep.errors.UserNotFound();
    return UserView(user);
  },
});
app.get("/api/users/:id", GetUser);

const CreateUser = defineEndpoint({
  params: {
    json: t.body(
      { user: { name: v.pipe(v.string(), v.minLength(1)), email: v.pipe(v.string(), v.email()) } },
      { require: true },
    ),
  },
  call(ep) {
    ep.status(201);
    return Echo(ep.params.json.user);
  },
});
app.post("/api/users", CreateUser);

const Search = defineEndpoint({
  params: {
    query: {
      q: v.string(),
      tags: v.optional(t.array(t.string()), []),
      page: v.optional(t.group({ size: v.optional(t.int32(), 20), number: v.optional(t.int32(), 1) })),
      active: v.optional(t.bool()),
      since: v.optional(t.date()),
      at: v.optional(t.epoch()),
      big: v.optional(t.int64()),
      ratio: v.optional(t.float()),
      userId: v.optional(t.key("user_id", t.int32())),
    },
  },
  call: (ep) =>
    Echo({
      ...ep.params.query,
      since: ep.params.query.since?.toISOString(),
      at: ep.params.query.at?.toISOString(),
      big: ep.params.query.big?.toString(),
    }),
});
app.get("/api/search", Search);

const Submit = defineEndpoint({
  params: {
    form: { user: { name: v.string(), age: t.int32() }, tags: v.optional(t.array(t.string())) },
    json: { user: { name: v.string(), age: t.int32() }, tags: v.optional(t.array(t.string())) },
  },
  call(ep) {
    const body = ep.params.form ?? ep.params.json;
    return Echo({ source: ep.params.form ? "form" : ep.params.json ? "json" : "none", ...body });
  },
});
app.post("/api/submit", Submit);

const Redirect = defineEndpoint({
  params: { query: { to: v.string() } },
  call(ep) {
    ep.redirect(ep.params.query.to);
    ep.header("x-after-redirect", "still running");
  },
});
app.get("/api/redirect", Redirect);

const Views = defineEndpoint({
  params: { query: { mode: v.picklist(["last", "return", "both", "none", "response"]) } },
  call(ep) {
    const mode = ep.params.query.mode;
    if (mode === "last" || mode === "both") {
      ep.view(Echo({ view: "first" }));
      ep.view(Echo({ view: "second" }));
    }
    if (mode === "return" || mode === "both") return Echo({ view: "returned" });
    if (mode === "response") return new Response("plain response");
    return undefined;
  },
});
app.get("/api/views", Views);

// Websockets.
app.ws("/ws/echo", (socket, ctx) => {
  socket.send(`hello ${ctx.request.id.length}`);
  socket.onMessage((message) => socket.send(message));
});
app.ws("/ws/close", (socket) => socket.onMessage(() => socket.close(4001, "bye")));

const Chat = defineChannel({
  params: { path: { room: v.pipe(v.string(), v.minLength(2)) }, query: { limit: v.optional(t.int32(), 5) } },
  errors: { RoomFull: 4090, Forbidden: 403 },
  before: [
    (ch) => {
      if (ch.params.path.room === "secret") throw new ch.errors.Forbidden();
    },
  ],
  onOpen(ch) {
    if (ch.params.path.room === "full") throw new ch.errors.RoomFull();
    ch.send(`joined ${ch.params.path.room} limit ${ch.params.query.limit}`);
  },
  onMessage(ch, message) {
    if (message === "crash") throw new Error("channel crash");
    ch.send(typeof message === "string" ? `${ch.params.path.room}: ${message}` : message);
  },
});
app.ws("/ws/chat/:room", Chat);
