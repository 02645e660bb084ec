// A handler returns a view, a Response or nothing; anything else would be ignored, so it is a type error.
import * as v from "valibot";
import { jwt } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, defineView, t } from "../../src/mod.ts";

const Hello = defineView({ text: (name: string) => `hello ${name}` });
const app = createApp();
app.get("/a", (ctx) => ctx.response.write("a"));
app.get("/b", (ctx) => {
  ctx.response.status = 204;
});
app.get("/c", () => new Response("c"));
app.get("/d", async () => Hello("d"));
app.get("/e", async (ctx) => {
  await Promise.resolve();
  ctx.response.write("e");
});
// @ts-expect-error a string would be ignored: the client would get an empty 200
app.get("/f", () => "text");
// @ts-expect-error so would a number, asynchronously
app.get("/g", async () => 42);

// A JSON body without `require` may be absent: reading it unguarded is a type error where it is read.
defineEndpoint({
  params: { json: { title: v.string() } },
  call(ep) {
    // @ts-expect-error possibly undefined: a POST without a JSON body leaves it undefined
    ep.params.json.title;
    return new Response(ep.params.json?.title ?? "no body");
  },
});
defineEndpoint({
  params: { json: t.body({ title: v.string() }, { require: true }) },
  call: (ep) => new Response(ep.params.json.title),
});

// `jwt` from portico/middleware points to portico/jwt: its parameter's type says where it is.

// @ts-expect-error jwt() is in portico/jwt: import { jwt } from "portico/jwt"
jwt({ secret: "x".repeat(32), algorithms: ["HS256"] });
