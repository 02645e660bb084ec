import express from "express";
import * as v from "valibot";
import { CreateUser, IdParams, SearchQuery } from "../shared-valibot.ts";

const app = express();
app.disable("x-powered-by");
app.disable("etag");
app.use(express.json());
app.get("/", (_req, res) => res.type("text/plain").send("Hello World"));
app.get("/users/:id", (req, res) => {
  const result = v.safeParse(IdParams, req.params);
  if (!result.success) return res.status(400).send("invalid");
  res.json({ id: result.output.id, name: `user${result.output.id}` });
});
app.get("/search", (req, res) => {
  const result = v.safeParse(SearchQuery, req.query);
  if (!result.success) return res.status(400).send("invalid");
  res.json({ offset: result.output.offset, limit: result.output.limit });
});
app.post("/users", (req, res) => {
  const result = v.safeParse(CreateUser, req.body);
  if (!result.success) return res.status(400).send("invalid");
  res.status(201).json({ name: result.output.user.name, email: result.output.user.email });
});
const server = app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () =>
  console.log(`READY http://127.0.0.1:${server.address().port}`),
);
