// The app a user writes against the installed package: a route, an endpoint with a declared error
// and a view, and a websocket channel. Every target of the install test serves this file.

import { createApp, defineChannel, defineEndpoint, defineView, t } from "portico";
import * as v from "valibot";

const UserView = defineView({
  json: (user: { id: number; name: string }) => user,
  text: (user) => `${user.id} ${user.name}`,
});

const users = new Map<number, string>([[1, "Ada"]]);

export const GetUser = defineEndpoint({
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
  onMessage(ch, message) {
    ch.send(`${ch.params.query.prefix}${typeof message === "string" ? message : "(binary)"}`);
  },
});

export const app = createApp();
app.get("/hello", (ctx) => {
  ctx.response.write("hello");
});
app.get("/users/:id", GetUser);
app.ws("/echo", Echo);
