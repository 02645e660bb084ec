import { after, before, describe } from "node:test";
import { type ServerHandle, serve } from "../../src/adapters/node.ts";
import { type Client, serverClient } from "./client.ts";
import { app } from "./fixture-app.ts";
import { registerConformance } from "./register.ts";

describe("conformance on a Node server (this Node)", () => {
  let server: ServerHandle;
  let client: Client;
  before(async () => {
    server = await serve(app, { port: 0, hostname: "127.0.0.1" });
    client = serverClient(server.url.origin);
  });
  after(() => server.close());
  registerConformance("Node 20 server", () => client);
});
