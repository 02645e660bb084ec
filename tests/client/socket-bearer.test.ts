// The typed client's `bearer` for channels: the token goes as a browser can send it (the subprotocols
// `bearer` and `bearer.<token>`), which bearerAuth({ websocketToken: "protocol" }) reads on the upgrade.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import WebSocket from "ws";
import { serve } from "../../src/adapters/node.ts";
import { createClient, type WebSocketConstructor } from "../../src/client/mod.ts";
import { bearerAuth } from "../../src/middleware/mod.ts";
import { createApp, defineChannel, defineRoutes } from "../../src/mod.ts";

const Echo = defineChannel({ protocols: ["echo.v1"], onMessage: (ch, message) => ch.send(message) });
const api = defineRoutes({ echo: ["WS", "/echo", Echo] });
const app = createApp();
app.use(bearerAuth({ token: "s3cret-token", websocketToken: "protocol" }));
app.mount("/api", api);

let server: Awaited<ReturnType<typeof serve>>;
before(async () => {
  server = await serve(app, { port: 0 });
});
after(() => server.close());

const client = () =>
  createClient({
    baseUrl: `http://127.0.0.1:${server.port}/api`,
    routes: api,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
  });

test("connect({ bearer }) opens a channel behind bearerAuth, even one with its own subprotocol", async () => {
  const connection = client().echo.connect({ bearer: "s3cret-token" });
  await connection.opened;
  const echoed = new Promise((resolve) => connection.onMessage(resolve));
  connection.send("hi");
  assert.equal(await echoed, "hi");
  connection.close();
});

test("a wrong bearer token is refused at the upgrade (401), and so is none", async () => {
  for (const input of [{ bearer: "wrong" }, {}]) {
    const connection = client().echo.connect(input);
    await assert.rejects(connection.opened);
  }
});
