// The Hono app, shared by Node, Bun and Deno: valibot through Hono's validator middleware.
export function buildHono(Hono, validator, v, schemas) {
  const check = (target, schema) =>
    validator(target, (value, c) => {
      const result = v.safeParse(schema, value);
      return result.success ? result.output : c.text("invalid", 400);
    });
  const app = new Hono();
  app.get("/", (c) => c.text("Hello World"));
  app.get("/users/:id", check("param", schemas.IdParams), (c) => {
    const { id } = c.req.valid("param");
    return c.json({ id, name: `user${id}` });
  });
  app.get("/search", check("query", schemas.SearchQuery), (c) => {
    const { offset, limit } = c.req.valid("query");
    return c.json({ offset, limit });
  });
  app.post("/users", check("json", schemas.CreateUser), (c) => {
    const { user } = c.req.valid("json");
    return c.json({ name: user.name, email: user.email }, 201);
  });
  return app;
}
