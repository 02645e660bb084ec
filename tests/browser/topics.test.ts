// Topics beyond websockets, in a real browser across instances: examples/chat on Node 24 and on Bun,
// sharing a real redis-server. Chromium follows a room's wall (server-sent events from `app.subscribe`)
// on the Node instance while a member on the Bun instance talks; it hears every line.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { openMember } from "../conformance/client.ts";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { nodeBin } from "../runtimes/targets.ts";
import { BROKERS, freePort, stopBroker, until } from "../services/brokers.ts";
import { launchChromium } from "./chromium.ts";

const bunBin = join(root, ".runtimes", "node_modules", ".bin", "bun");

let redis: Awaited<ReturnType<(typeof BROKERS)[number]["start"]>> | undefined;
let node: StartedProcess | undefined;
let bun: StartedProcess | undefined;
before(async () => {
  const port = await freePort();
  redis = await BROKERS[0]!.start(port);
  const env = { REDIS_URL: `redis://127.0.0.1:${port}`, PORT: "0" };
  [node, bun] = await Promise.all([
    startProcess(nodeBin(24), ["examples/chat/node.ts"], env),
    startProcess(bunBin, ["run", "examples/chat/bun.ts"], env),
  ]);
});
after(async () => {
  await Promise.all([node?.stop(), bun?.stop()]);
  if (redis) await stopBroker(redis);
});

test("a wall on Node (EventSource in Chromium) hears a member who talks on Bun", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${node!.origin}/wall/hall`);
    const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    // The Node instance subscribes to the room's topic when the wall's stream opens: until a line
    // crosses, the member says it again.
    const ada = await openMember(`${bun!.origin}/chat/hall?name=ada`, false);
    await until(
      async () => {
        ada.ws.send("ping");
        return page
          .waitForFunction(() => (window as unknown as { seen: string[] }).seen.includes("ada: ping"), null, {
            timeout: 500,
          })
          .then(
            () => true,
            () => false,
          );
      },
      "the wall on Node to hear a member on Bun",
      15_000,
    );
    ada.ws.send("hello from Bun");
    await page.waitForFunction(
      () => (window as unknown as { seen: string[] }).seen.includes("ada: hello from Bun"),
      null,
      { timeout: 10_000 },
    );
    ada.ws.close();
    await page.waitForFunction(
      () => (window as unknown as { seen: string[] }).seen.includes("* ada left"),
      null,
      { timeout: 10_000 },
    );
    const lines = await seen();
    assert.ok(lines.indexOf("ada: hello from Bun") < lines.indexOf("* ada left"), "in the order said");
  } finally {
    await browser.close();
  }
});
