// The Portico app of every benchmark, built from a given copy of Portico (bench/ab.ts measures two
// builds with it): the four scenarios as endpoints, and S5.
import * as v from "valibot";
import type * as Middleware from "../../src/middleware/mod.ts";
import type * as Portico from "../../src/mod.ts";

/** The benchmark app, made with `portico` and `middleware` (the modules of one build). */
export function benchApp(
  portico: typeof Portico,
  middleware: typeof Middleware,
  options: Portico.AppOptions = {},
): Portico.App {
  const { createApp, defineEndpoint, defineError, defineView, t } = portico;
  const { cors, logger, secureHeaders } = middleware;
  const Json = defineView({ json: (data: object) => data });

  const GetUser = defineEndpoint({
    params: { path: { id: t.int32() } },
    call: (ep) => Json({ id: ep.params.path.id, name: `user${ep.params.path.id}` }),
  });

  const Search = defineEndpoint({
    params: { query: { offset: v.optional(t.int32()), limit: v.optional(t.int32(), 10) } },
    call: (ep) => Json({ offset: ep.params.query.offset, limit: ep.params.query.limit }),
  });

  const CreateUser = defineEndpoint({
    params: { json: t.body({ user: { name: v.string(), email: v.string() } }, { require: true }) },
    call(ep) {
      ep.status(201);
      return Json({ name: ep.params.json.user.name, email: ep.params.json.user.email });
    },
  });

  const app = createApp(options);
  // S1 as ../shared/bench-independent writes it: the content type said.
  app.get("/", (ctx) => {
    ctx.response.headers.set("content-type", "text/plain");
    ctx.response.write("Hello World");
  });
  app.get("/users/:id", GetUser);
  app.get("/search", Search);
  app.post("/users", CreateUser);

  // S5: what production apps stack: a logger (to a sink that drops the entries), CORS, security headers,
  // and a declared error answering 404 JSON.
  const ItemNotFound = defineError("ItemNotFound", 404, { payload: { id: t.int32() } });
  const GetItem = defineEndpoint({
    params: { path: { id: t.int32() } },
    errors: { ItemNotFound },
    call(ep) {
      throw new ep.errors.ItemNotFound({ id: ep.params.path.id });
    },
  });
  app.on("/s5", (r) => {
    r.use(logger({ sink: () => {} }));
    r.use(cors({ origin: ["https://app.example"] }));
    r.use(secureHeaders());
    r.get("/items/:id", GetItem);
  });
  return app;
}
