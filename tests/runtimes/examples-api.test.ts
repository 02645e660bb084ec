// examples/api on every runtime the conformance suite covers: the same OpenAPI document everywhere,
// and the typed client (reading that document) talking to each server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { api } from "../../examples/api/app.ts";
import { document } from "../../examples/api/app.ts";
import { createClient } from "../../src/client/mod.ts";
import { root, startProcess, startWorker } from "./processes.ts";
import { nodeBin } from "./targets.ts";

const deno = join(root, "node_modules", ".bin", "deno");
const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const servers: Record<string, () => Promise<{ origin: string; stop(): Promise<void> }>> = {
  "Node 24": () => startProcess(nodeBin(24), ["examples/api/node.ts"], { PORT: "0" }),
  Bun: () => startProcess(bun, ["run", "examples/api/bun.ts"], { PORT: "0" }),
  Deno: () =>
    startProcess(deno, ["run", "--allow-net", "--allow-env", "--allow-read", "examples/api/deno.ts"], {
      PORT: "0",
    }),
  "workerd (Miniflare)": () => startWorker(join(root, "examples", "api", "workers.ts")),
};

for (const [runtime, start] of Object.entries(servers)) {
  describe(`examples/api on ${runtime}`, () => {
    let server: { origin: string; stop(): Promise<void> };
    before(async () => {
      server = await start();
    });
    after(async () => {
      await server?.stop();
    });

    test("serves the same OpenAPI document as in-process", async () => {
      const served = await (await fetch(`${server.origin}/openapi.json`)).json();
      assert.deepEqual(served, JSON.parse(JSON.stringify(document)));
    });

    test("answers the typed client, which reads the routes from that document", async () => {
      const client = createClient<typeof api>({ baseUrl: `${server.origin}/api` });
      const ada = await client.getUser({ path: { id: 1 } });
      assert.ok(ada.ok && ada.data.name === "Ada");
      const missing = await client.getUser({ path: { id: 99 } });
      assert.ok(!missing.ok && missing.error.name === "UserNotFound" && missing.error.payload.id === 99);
      const created = await client.createUser({ json: { user: { name: "Rin", email: "rin@example.com" } } });
      assert.ok(created.ok && created.status === 201 && created.data.email === "rin@example.com");
      const list = await client.listUsers({ query: { filter: { name: "Rin" } } });
      assert.ok(list.ok && list.data.users.length === 1);
      const invalid = await client.createPost({ path: { id: 1 }, json: { post: { title: "", body: "" } } });
      assert.ok(!invalid.ok && invalid.error.name === "JSONBodyError");
    });
  });
}
