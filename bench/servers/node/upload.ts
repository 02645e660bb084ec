// A Node server that takes a 100 MiB multipart upload one way, chosen by MODE, for bench/upload.ts:
// stream (t.file({ stream: true })), buffered (t.file(), a File in memory), formdata (request.formData(),
// what Hono, h3 and Elysia do).
import * as v from "valibot";
import { serve } from "../../../src/adapters/node.ts";
import { bodyLimit } from "../../../src/middleware/mod.ts";
import { createApp, defineEndpoint, t } from "../../../src/mod.ts";

const LIMIT = 256 * 1024 * 1024;
const Streamed = defineEndpoint({
  params: { form: { note: v.string(), data: t.file({ stream: true, maxSize: LIMIT }) } },
  async call(ep) {
    let bytes = 0;
    const reader = ep.params.form!.data.stream().getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      bytes += read.value.byteLength;
    return Response.json({ bytes });
  },
});
const Buffered = defineEndpoint({
  params: { form: { note: v.string(), data: t.file({ maxSize: LIMIT }) } },
  call: (ep) => Response.json({ bytes: ep.params.form!.data.size }),
});

const app = createApp();
app.use(bodyLimit(LIMIT));
app.post("/stream", Streamed);
app.post("/buffered", Buffered);
app.post("/formdata", async (ctx) => {
  const form = await ctx.request.raw.formData();
  return Response.json({ bytes: (form.get("data") as File).size });
});

const server = await serve(app, { port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" });
console.log(`READY ${server.url.origin}`);
process.on("SIGTERM", () => process.exit(0));
