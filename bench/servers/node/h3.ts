// h3 v2 as its users run it and ../shared/bench-independent does: served by its own `serve` (srvx), its
// Standard Schema helpers validating with valibot (a failure is h3's own 400).
import { getValidatedQuery, getValidatedRouterParams, H3, readValidatedBody, serve } from "h3";
import { CreateUser, IdParams, SearchQuery } from "../shared-valibot.ts";

const app = new H3();
app.get("/", () => "Hello World");
app.get("/users/:id", async (event) => {
  const { id } = await getValidatedRouterParams(event, IdParams);
  return { id, name: `user${id}` };
});
app.get("/search", async (event) => {
  const { offset, limit } = await getValidatedQuery(event, SearchQuery);
  return { offset, limit };
});
app.post("/users", async (event) => {
  const { user } = await readValidatedBody(event, CreateUser);
  event.res.status = 201;
  return { name: user.name, email: user.email };
});
const server = serve(app, {
  port: Number(process.env.PORT ?? 3000),
  hostname: "127.0.0.1",
  silent: true,
  gracefulShutdown: false,
});
await server.ready();
console.log(`READY http://127.0.0.1:${new URL(server.url!).port}`);
