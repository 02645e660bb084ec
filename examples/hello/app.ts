// The hello app: a few routes, a namespace, middleware and the default 404. Every entry file in this
// folder serves this same object on its runtime.
import { createApp } from "portico";

export const app = createApp();

app.use(async (ctx, next) => {
  const started = performance.now();
  await next();
  ctx.response.headers.set("server-timing", `app;dur=${(performance.now() - started).toFixed(2)}`);
});

app.get("/", (ctx) => {
  ctx.response.write("Hello from Portico!\n");
  ctx.response.write(`Your request id is ${ctx.request.id}\n`);
});

app.get("/hello/:name", (ctx) => {
  ctx.response.write(`Hello, ${ctx.request.pathParams.name}!`);
});

app.on("/api", (r) => {
  r.get("/time", () => Response.json({ now: new Date().toISOString() }));
  r.get("/echo/*", (ctx) => Response.json({ path: ctx.request.pathParams[0], query: ctx.request.query }));
});

app.ws("/echo", (socket) => socket.onMessage((message) => socket.send(message)));
