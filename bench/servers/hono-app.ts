// The Hono app, shared by Node, Bun and Deno: valibot through @hono/valibot-validator, as Hono's users
// validate (and as ../shared/bench-independent does).
import { vValidator } from "@hono/valibot-validator";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { logger } from "hono/logger";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type * as v from "valibot";
import { CreateUser, IdParams, SearchQuery } from "./shared-valibot.ts";

// The contract's 400 for invalid input (the validator's own answer is a 400 with the issues).
const check = <TSchema extends v.GenericSchema>(target: "param" | "query" | "json", schema: TSchema) =>
  vValidator(target, schema, (result, c) => (result.success ? undefined : c.text("invalid", 400)));

export function buildHono(options: { requestId?: boolean } = {}): Hono {
  const app = new Hono();
  // Portico gives every request an id (a UUID, sent back): the like-for-like Hono has its requestId.
  if (options.requestId) app.use(requestId());
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
  // S5: a logger (printing nowhere), CORS, secure headers, and an error path answering 404 JSON.
  app.use(
    "/s5/*",
    logger(() => {}),
  );
  app.use("/s5/*", cors({ origin: ["https://app.example"] }));
  app.use("/s5/*", secureHeaders());
  app.get("/s5/items/:id", check("param", IdParams), (c) => {
    const { id } = c.req.valid("param");
    return c.json({ error: { name: "Item Not Found", message: null, code: 404, payload: { id } } }, 404);
  });
  return app;
}
