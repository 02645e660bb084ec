// A production-shaped app on whichever runtime runs the file (Node, Bun, Deno), served by the runtime's
// `serve()` with its defaults (signals included): trusted proxies from $TRUST_PROXY, `onStart` and
// `onClose` hooks that print, slow requests counted as they are accepted and answered, a websocket,
// static files from $STATIC_ROOT.
import { setCookie } from "../../../src/cookie/mod.ts";
import { csrf } from "../../../src/middleware/mod.ts";
import { createApp, currentContext } from "../../../src/mod.ts";
import { openapi, serveDocument } from "../../../src/openapi/mod.ts";
import { serveStatic } from "../../../src/static/serve-static.ts";
import { envVar, serveHere } from "../serve-here.ts";

const trust = envVar("TRUST_PROXY");
const header = envVar("PROXY_HEADER") === "forwarded" ? "forwarded" : "x-forwarded-for";
const app = createApp({
  logger: {
    error: (message, error) => console.error(message, error),
    info: (message) => console.log(message),
  },
  ...(trust ? { trustProxy: { addresses: trust.split(","), header } } : {}),
  asyncContext: true,
});

// Code that is not given ctx: what currentContext() finds after an await.
async function requestId(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5)));
  return currentContext()?.request.id ?? "none";
}
app.get("/current", async (ctx) => ctx.response.write(await requestId()));

let accepted = 0;
let answered = 0;
let started = false;
app.onStart(async () => {
  await new Promise((resolve) => setTimeout(resolve, 100));
  started = true;
  console.log("STARTED");
});
app.onClose(() => console.log(`CLOSED accepted=${accepted} answered=${answered}`));

app.get("/started", () => new Response(String(started)));
app.get("/url", (ctx) => new Response(ctx.request.url));
app.get("/ip", (ctx) => new Response(String(ctx.request.ip)));
app.get("/cookie", (ctx) => {
  setCookie(ctx, "pref", "1", { secure: "auto" });
  return new Response("set");
});
app.on("/form", (r) => r.use(csrf()).post("/", () => new Response("posted")));
app.get("/slow", async (ctx) => {
  accepted++;
  const ms = Number(new URL(ctx.request.url).searchParams.get("ms") ?? "500");
  await new Promise((resolve) => setTimeout(resolve, ms));
  answered++;
  return new Response("done");
});
const root = envVar("STATIC_ROOT");
if (root) app.get("/assets/*", serveStatic({ root, precompressed: true, maxAge: 60 }));
app.ws("/ws", (socket) => socket.onMessage((message) => socket.send(message)));
app.get("/openapi.json", serveDocument(openapi(app, { info: { title: "production", version: "1" } })));

await serveHere(app);
