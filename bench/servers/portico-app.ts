// The Portico app for every runtime: the four scenarios as endpoints.
import * as v from "valibot";
import { createApp, defineEndpoint, defineView, t } from "../../src/mod.ts";

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

export const app = createApp();
app.get("/", (ctx) => {
  ctx.response.write("Hello World");
});
app.get("/users/:id", GetUser);
app.get("/search", Search);
app.post("/users", CreateUser);
