// A real browser against real servers: Chromium (Debian's, driven by playwright-core) reads
// server-sent events through a dropped connection, and chats over websockets, on Node, Bun and Deno.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { bun, deno, node24, nodeBin, type RunningTarget } from "../runtimes/targets.ts";
import { launchChromium } from "./chromium.ts";

const denoBin = join(root, "node_modules", ".bin", "deno");
const bunBin = join(root, ".runtimes", "node_modules", ".bin", "bun");
const chatServers: Record<string, () => Promise<StartedProcess>> = {
  node: () => startProcess(nodeBin(24), ["examples/chat/node.ts"], { PORT: "0" }),
  bun: () => startProcess(bunBin, ["run", "examples/chat/bun.ts"], { PORT: "0" }),
  deno: () =>
    startProcess(denoBin, ["run", "--allow-net", "--allow-env", "--allow-read", "examples/chat/deno.ts"], {
      PORT: "0",
    }),
};

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

for (const [runtime, target] of [
  ["node", node24],
  ["bun", bun],
  ["deno", deno],
] as const) {
  describe(`Chromium against ${target.name}`, () => {
    let server: RunningTarget;
    before(async () => {
      server = await target.start();
    });
    after(async () => {
      await server?.stop();
    });

    test("EventSource: the server drops the stream, the browser resumes with Last-Event-ID", async () => {
      const page = await browser.newPage();
      try {
        await page.goto(`${server.origin}/b/sse-page`);
        await page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.length >= 9, null, {
          timeout: 10_000,
        });
        const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
        assert.deepEqual(seen, [
          "1|1 after none",
          "2|2 after none",
          "3|3 after none",
          "4|4 after 3",
          "5|5 after 3",
          "6|6 after 3",
          "7|7 after 6",
          "8|8 after 6",
          "9|9 after 6",
        ]);
      } finally {
        await page.close();
      }
    });

    test("WebSocket: two members of examples/chat talk through the page it serves", async () => {
      const chat = await chatServers[runtime]!();
      const open = async (name: string): Promise<Page> => {
        const page = await browser.newPage();
        page.on("dialog", (dialog) => void dialog.accept(name));
        await page.goto(`${chat.origin}/`);
        return page;
      };
      const logOf = (page: Page) => page.locator("#log");
      try {
        const ada = await open("ada");
        await logOf(ada).getByText("* ada joined (1 here)").waitFor({ timeout: 10_000 });
        const bob = await open("bob");
        await logOf(ada).getByText("* bob joined (2 here)").waitFor({ timeout: 10_000 });
        await bob.fill("#m", "hello from bob");
        await bob.press("#m", "Enter");
        await logOf(ada).getByText("bob: hello from bob").waitFor({ timeout: 10_000 });
        await logOf(bob).getByText("bob: hello from bob").waitFor({ timeout: 10_000 });
        await bob.close();
        await logOf(ada).getByText("* bob left").waitFor({ timeout: 10_000 });
        await ada.close();
      } finally {
        await chat.stop();
      }
    });
  });
}
