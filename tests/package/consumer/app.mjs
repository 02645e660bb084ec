// The same app in plain JavaScript, for `node app.mjs` on Node 20.

import { createApp, defineChannel, defineEndpoint, defineView, t } from "portico";
import { serve } from "portico/node";
import * as v from "valibot";

const UserView = defineView({ json: (user) => user, text: (user) => `${user.id} ${user.name}` });
const users = new Map([[1, "Ada"]]);
const GetUser = defineEndpoint({
  params: { path: { id: t.int32() } },
  errors: { UserNotFound: { code: 404, message: "No such user" } },
  call(ep) {
    const name = users.get(ep.params.path.id);
    if (name === undefined) throw new ep.errors.UserNotFound();
    return UserView({ id: ep.params.path.id, name });
  },
});
const Echo = defineChannel({
  params: { query: { prefix: v.optional(v.string(), "") } },
  onMessage: (ch, message) => ch.send(`${ch.params.query.prefix}${message}`),
});

const app = createApp();
app.get("/hello", (ctx) => {
  ctx.response.write("hello");
});
app.get("/users/:id", GetUser);
app.ws("/echo", Echo);

const server = await serve(app, { port: 0 });
console.log(`READY ${server.url.origin}`);
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
