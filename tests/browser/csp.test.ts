// Portico's pages under Portico's own strict Content-Security-Policy, in a real browser: Chromium loads
// `docsPage()` (its viewer self-hosted through `scriptUrl`) and the HTML error page from an app that
// runs `secureHeaders()` with nonces only. Both work, and nothing is reported blocked; a page without
// the nonce is blocked (the policy is really on).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { serve } from "../../src/adapters/node.ts";
import { NONCE, secureHeaders } from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";
import { docsPage, openapi } from "../../src/openapi/mod.ts";
import { launchChromium } from "./chromium.ts";

// Stands in for the viewer (no network here): it reads the document URL from the tag Scalar reads it
// from, fetches the document, and shows its title.
const VIEWER = `const tag = document.getElementById("api-reference");
fetch(tag.dataset.url).then((r) => r.json()).then((doc) => { document.title = "viewer: " + doc.info.title; });`;

const app = createApp();
app.use(
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE],
      styleSrc: [NONCE],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
    },
  }),
);
app.get("/docs", docsPage({ specUrl: "/openapi.json", scriptUrl: "/assets/viewer.js" }));
app.get("/assets/viewer.js", () => new Response(VIEWER, { headers: { "content-type": "text/javascript" } }));
app.get("/openapi.json", () => Response.json(openapi(app, { info: { title: "CSP check", version: "1" } })));
app.get("/unsigned", () => {
  const page = `<!doctype html><title>before</title><script>document.title = "ran";</script>`;
  return new Response(page, { headers: { "content-type": "text/html" } });
});

let browser: Browser;
let server: Awaited<ReturnType<typeof serve>>;
before(async () => {
  server = await serve(app, { port: 0 });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// Opens a page, collects what the browser reports blocked by the policy, and runs the checks on it.
async function onPage(path: string, check: (page: Page, blocked: string[]) => Promise<void>): Promise<void> {
  const page = await browser.newPage();
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  try {
    await page.goto(new URL(path, server.url).href);
    await check(page, blocked);
  } finally {
    await page.close();
  }
}

test("docsPage(): the viewer runs under script-src with the request's nonce only", () =>
  onPage("/docs", async (page, blocked) => {
    await page.waitForFunction(() => document.title === "viewer: CSP check", null, { timeout: 10_000 });
    assert.deepEqual(blocked, []);
  }));

test("the HTML error page: its style applies under style-src with the nonce", () =>
  onPage("/no-such-page", async (page, blocked) => {
    const width = await page.evaluate(() => getComputedStyle(document.body).maxWidth);
    assert.equal(width, "640px", "the page's own style applied (max-width: 40rem)");
    assert.deepEqual(blocked, []);
  }));

test("a script without the nonce is blocked: the policy is in force", () =>
  onPage("/unsigned", async (page, blocked) => {
    assert.equal(await page.title(), "before");
    assert.ok(blocked.length > 0, "Chromium reported the blocked inline script");
  }));
