import cors from "@fastify/cors";
import helmet from "@fastify/helmet";
import Fastify from "fastify";

// As its users run it and ../shared/bench-independent does: JSON Schema for input and for the response
// (its serializer). Pino logs in S5 only (to a stream that drops the lines): request logging in S1-S4
// is not what the other contestants pay.
const app = Fastify({ logger: { level: "silent", stream: { write: () => {} } } });
const int32 = { type: "integer", minimum: -2147483648, maximum: 2147483647 };
app.get("/", (_req, reply) => reply.type("text/plain; charset=utf-8").send("Hello World"));
app.get(
  "/users/:id",
  {
    schema: {
      params: { type: "object", properties: { id: int32 }, required: ["id"] },
      response: {
        200: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" } } },
      },
    },
  },
  (req) => ({
    id: req.params.id,
    name: `user${req.params.id}`,
  }),
);
app.get(
  "/search",
  {
    schema: {
      querystring: { type: "object", properties: { offset: int32, limit: { ...int32, default: 10 } } },
      response: {
        200: { type: "object", properties: { offset: { type: "integer" }, limit: { type: "integer" } } },
      },
    },
  },
  (req) => ({ offset: req.query.offset, limit: req.query.limit }),
);
app.post(
  "/users",
  {
    schema: {
      body: {
        type: "object",
        required: ["user"],
        properties: {
          user: {
            type: "object",
            required: ["name", "email"],
            properties: { name: { type: "string" }, email: { type: "string" } },
          },
        },
      },
      response: {
        201: {
          type: "object",
          required: ["name", "email"],
          properties: { name: { type: "string" }, email: { type: "string" } },
        },
      },
    },
  },
  (req, reply) => reply.code(201).send({ name: req.body.user.name, email: req.body.user.email }),
);
// S5: a logger (pino, to a stream that drops the lines), CORS, security headers (helmet), and an error
// path answering 404 JSON, in an encapsulated plugin as Fastify apps do.
await app.register(
  async (scope) => {
    await scope.register(cors, { origin: ["https://app.example"] });
    await scope.register(helmet);
    scope.get(
      "/items/:id",
      { schema: { params: { type: "object", properties: { id: int32 }, required: ["id"] } } },
      (req, reply) => {
        req.log.info({ id: req.params.id }, "item");
        return reply.code(404).send({
          error: { name: "Item Not Found", message: null, code: 404, payload: { id: req.params.id } },
        });
      },
    );
  },
  { prefix: "/s5", logLevel: "info" },
);
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" });
console.log(`READY ${address}`);
