import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { serverClient, wsSession } from "../conformance/client.ts";
import { rawExchange } from "../conformance/raw.ts";
import { bunDefault, denoHelper, type RunningTarget, type Target } from "./targets.ts";

// The other documented ways to start the same app: a request and a websocket through each.
for (const target of [bunDefault, denoHelper] satisfies Target[]) {
  describe(`entry point: ${target.name}`, () => {
    let running: RunningTarget | undefined;
    before(async () => {
      running = await target.start();
    });
    after(() => running?.stop());
    test("serves HTTP", async () => {
      const res = await serverClient(running!.origin).fetch("/api/users/1", {
        headers: { accept: "text/plain" },
      });
      assert.equal(await res.text(), "1 Ada");
    });
    test("serves websockets", async () => {
      const outcome = await wsSession(running!.origin, "/ws/echo", { send: ["ping"], closeAfter: 2 });
      assert.deepEqual(outcome.messages, ["hello true", "ping"]);
    });
  });
}

describe("entry point: Deno (portico/deno serve) knows its connection's scheme", () => {
  let running: RunningTarget | undefined;
  before(async () => {
    running = await denoHelper.start();
  });
  after(() => running?.stop());
  // Deno.serve(app.fetch) passes the client's https on (the README's table); the helper opened the
  // socket without TLS, so the URL is http whatever the target said.
  test("an absolute-form https:// target over plain HTTP: the URL stays http", async () => {
    const answer = await rawExchange(
      running!.origin,
      "GET https://evil.example/h/whoami HTTP/1.1\r\nHost: good.example\r\nConnection: close\r\n\r\n",
    );
    assert.equal(answer.kind, "response");
    if (answer.kind !== "response") return;
    assert.equal(answer.status, 200);
    assert.match(
      answer.body,
      /^\{"url":"http:\/\/good\.example\/h\/whoami","raw":"http:\/\/good\.example\/h\/whoami"\}$/,
    );
  });
});
