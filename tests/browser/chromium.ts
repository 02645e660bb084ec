// Debian's Chromium, driven by playwright-core (browser downloads are blocked here): found, or the
// tests fail saying how to get it.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
