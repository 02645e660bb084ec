// examples/chat on workerd (Miniflare) with its rooms in a Durable Object (hibernation API): several
// members hear each other, a message reaches everyone in the room and no one outside, a member leaving
// is announced.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { openMember } from "../conformance/client.ts";
import { until } from "../services/brokers.ts";
import { root, type StartedWorker, startWorker } from "./processes.ts";

const member = (origin: string, room: string, name: string) =>
  openMember(`${origin}/chat/${room}?name=${name}`, false);

describe("examples/chat on workerd, rooms in a Durable Object", () => {
  let worker: StartedWorker;
  before(async () => {
    worker = await startWorker(join(root, "examples", "chat", "workers.ts"), 0, { ROOMS: "ChatRooms" });
  });
  after(async () => {
    await worker?.stop();
  });

  test("members of a room hear each other; another room hears nothing; a leave is announced", async () => {
    const ada = await member(worker.origin, "lobby", "ada");
    await until(() => ada.got.includes("* ada joined (1 here)"), "ada's own join");
    const bob = await member(worker.origin, "lobby", "bob");
    const cy = await member(worker.origin, "lobby", "cy");
    const other = await member(worker.origin, "garden", "dee");
    await until(() => ada.got.includes("* cy joined (3 here)"), "the joins reaching ada");
    bob.ws.send("hello all");
    for (const m of [ada, bob, cy]) await until(() => m.got.includes("bob: hello all"), "the broadcast");
    assert.deepEqual(other.got, ["* dee joined (1 here)"]);
    bob.ws.close();
    await until(() => ada.got.includes("* bob left") && cy.got.includes("* bob left"), "the leave notice");
    assert.equal(ada.got.filter((line) => line === "bob: hello all").length, 1, "delivered once");
    for (const m of [ada, cy, other]) m.ws.close();
    const page = await fetch(`${worker.origin}/`);
    assert.match(await page.text(), /Portico chat/);
  });
});
