// The Hono app, shared by Node, Bun and Deno: valibot through Hono's validator middleware.
import { Hono } from "hono";
import { validator } from "hono/validator";
import * as v from "valibot";
import { CreateUser, IdParams, SearchQuery } from "./shared-valibot.ts";

function check<TSchema extends v.GenericSchema>(target: "param" | "query" | "json", schema: TSchema) {
  return validator(target, (value, c) => {
    const result = v.safeParse(schema, value);
    return result.success ? (result.output as v.InferOutput<TSchema>) : c.text("invalid", 400);
  });
}

export function buildHono(): Hono {
  const app = new Hono();
  app.get("/", (c) => c.text("Hello World"));
  app.get("/users/:id", check("param", IdParams), (c) => {
    const { id } = c.req.valid("param");
    return c.json({ id, name: `user${id}` });
  });
  app.get("/search", check("query", SearchQuery), (c) => {
    const { offset, limit } = c.req.valid("query");
    return c.json({ offset, limit });
  });
  app.post("/users", check("json", CreateUser), (c) => {
    const { user } = c.req.valid("json");
    return c.json({ name: user.name, email: user.email }, 201);
  });
  return app;
}
