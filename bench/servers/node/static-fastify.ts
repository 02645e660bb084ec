// Static files with @fastify/static (its defaults: ETag, Last-Modified, ranges through `send`).
import fastifyStatic from "@fastify/static";
import Fastify from "fastify";

const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root: process.env.STATIC_ROOT ?? ".", prefix: "/static/" });
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" });
console.log(`READY ${address}`);
