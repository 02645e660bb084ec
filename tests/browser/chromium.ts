// Debian's Chromium, driven by playwright-core (browser downloads are blocked here): found, or the
// tests fail saying how to get it.
import { existsSync } from "node:fs";
import { after, before } from "node:test";
import { type Browser, chromium } from "playwright-core";
import { serve } from "../../src/adapters/node.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Starts Chromium headless. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install it with \`apt-get install chromium\` (.ci/run does), or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/**
 * Serves `app` on Node and starts Chromium before the file's tests, and stops both after them; the two
 * are read through the returned object once the tests run.
 */
export function servedInChromium(app: Parameters<typeof serve>[0]): {
  readonly browser: Browser;
  readonly server: Awaited<ReturnType<typeof serve>>;
} {
  const started = {} as { browser: Browser; server: Awaited<ReturnType<typeof serve>> };
  before(async () => {
    started.server = await serve(app, { port: 0 });
    started.browser = await launchChromium();
  });
  after(async () => {
    await started.browser?.close();
    await started.server?.close();
  });
  return started;
}
