import { createServer } from "node:http";
import {
  getValidatedQuery,
  getValidatedRouterParams,
  H3,
  HTTPError,
  readValidatedBody,
  toNodeHandler,
} from "h3";
import * as v from "valibot";
import { CreateUser, IdParams, SearchQuery } from "../shared-valibot.ts";

const validate = (schema) => (data) => {
  const result = v.safeParse(schema, data);
  if (!result.success) throw new HTTPError({ status: 400, message: "invalid" });
  return result.output;
};
const app = new H3();
app.get("/", () => "Hello World");
app.get("/users/:id", async (event) => {
  const { id } = await getValidatedRouterParams(event, validate(IdParams));
  return { id, name: `user${id}` };
});
app.get("/search", async (event) => {
  const { offset, limit } = await getValidatedQuery(event, validate(SearchQuery));
  return { offset, limit };
});
app.post("/users", async (event) => {
  const { user } = await readValidatedBody(event, validate(CreateUser));
  event.res.status = 201;
  return { name: user.name, email: user.email };
});
const server = createServer(toNodeHandler(app));
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () =>
  console.log(`READY http://127.0.0.1:${server.address().port}`),
);
