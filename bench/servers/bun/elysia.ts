import { Elysia, t } from "elysia";

const int32 = t.Integer({ minimum: -2147483648, maximum: 2147483647 });
const app = new Elysia()
  // Hooks apply to the routes registered after them: the contract's 400 for invalid input.
  .onError(({ code }) => {
    if (code === "VALIDATION" || code === "PARSE") return new Response("invalid", { status: 400 });
  })
  .get("/", () => "Hello World")
  .get("/users/:id", ({ params: { id } }) => ({ id, name: `user${id}` }), { params: t.Object({ id: int32 }) })
  .get("/search", ({ query }) => ({ offset: query.offset, limit: query.limit }), {
    query: t.Object({
      offset: t.Optional(int32),
      limit: t.Optional(t.Integer({ minimum: -2147483648, maximum: 2147483647, default: 10 })),
    }),
  })
  .post(
    "/users",
    ({ body, set }) => {
      set.status = 201;
      return { name: body.user.name, email: body.user.email };
    },
    { body: t.Object({ user: t.Object({ name: t.String(), email: t.String() }) }) },
  )
  .listen({ port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" });
console.log(`READY http://127.0.0.1:${app.server?.port}`);
