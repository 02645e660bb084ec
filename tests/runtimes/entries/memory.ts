// A server for the memory tests (tests/runtimes/tiny-chunks.test.ts): the body readers, and the
// process's resident memory after a full garbage collection. Runs on Node (--expose-gc), Deno
// (--v8-flags=--expose-gc) and Bun (Bun.gc).
import * as v from "valibot";
import { createApp, defineEndpoint, readBody, t } from "../../../src/mod.ts";

interface Runtimes {
  gc?: () => void;
  Bun?: { gc(force: boolean): void; serve(options: object): { url: URL } };
  Deno?: {
    memoryUsage(): { rss: number };
    serve(options: object, handler: unknown): unknown;
  };
  process?: { memoryUsage(): { rss: number } };
}
const g = globalThis as Runtimes;

const app = createApp({ limits: { bodySize: 4 << 20 } });
app.get("/rss", (ctx) => {
  if (g.Bun !== undefined) g.Bun.gc(true);
  else if (g.gc !== undefined) g.gc();
  else throw new Error("start the runtime with its garbage collector exposed");
  ctx.response.write(String((g.Deno ?? g.process)!.memoryUsage().rss));
});
app.post("/read-body", async (ctx) => {
  ctx.response.write(String((await readBody(ctx)).byteLength));
});
const Json = defineEndpoint({
  params: { json: { text: v.string() } },
  call: (ep) => {
    ep.context.response.write(String(ep.params.json!.text.length));
  },
});
app.post("/json", Json);
const Upload = defineEndpoint({
  params: { form: { file: t.file({ maxSize: 4 << 20 }) } },
  call: (ep) => {
    ep.context.response.write(String(ep.params.form!.file.size));
  },
});
app.post("/file", Upload);

if (g.Bun !== undefined) {
  const server = g.Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, websocket: app.websocket });
  console.log(`READY ${server.url.origin}`);
} else if (g.Deno !== undefined) {
  g.Deno.serve(
    {
      port: 0,
      hostname: "127.0.0.1",
      onListen: ({ port }: { port: number }) => console.log(`READY http://127.0.0.1:${port}`),
    },
    app.fetch,
  );
} else {
  const { serve } = await import("../../../src/adapters/node.ts");
  const server = await serve(app, { port: 0, hostname: "127.0.0.1" });
  console.log(`READY ${server.url.origin}`);
}
