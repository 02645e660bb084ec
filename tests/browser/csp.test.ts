// Portico's pages under Portico's own strict Content-Security-Policy, in a real browser: Chromium loads
// `docsPage()` — the real Scalar file it pins, self-hosted through `scriptUrl` (`.runtimes/ensure.mjs`
// fetches it from the registry and checks its hash) — and the HTML error page from an app that runs
// `secureHeaders()` with nonces only. The reference renders styled under the page's own policy, which
// replaces the app's on that response; under the app's (`csp: false`) it is blocked, unstyled, as a
// newcomer found. A page without the nonce is blocked (the policy is really on).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { NONCE, secureHeaders } from "../../src/middleware/mod.ts";
import { createApp, defineEndpoint, t } from "../../src/mod.ts";
import { docsPage, openapi, SCALAR_VERSION } from "../../src/openapi/mod.ts";
import { root } from "../runtimes/processes.ts";
import { servedInChromium } from "./chromium.ts";

const scalarFile = join(root, ".runtimes", "node_modules", ".scalar", `standalone-${SCALAR_VERSION}.js`);
const scalar = (() => {
  try {
    return readFileSync(scalarFile);
  } catch {
    throw new Error(`No ${scalarFile}: run \`node .runtimes/ensure.mjs\` (npm test does)`);
  }
})();

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
app.get("/docs", docsPage({ specUrl: "/openapi.json", scriptUrl: "/assets/scalar.js" }));
app.get(
  "/docs-no-fonts",
  docsPage({ specUrl: "/openapi.json", scriptUrl: "/assets/scalar.js", fonts: false }),
);
app.get(
  "/docs-app-policy",
  docsPage({ specUrl: "/openapi.json", scriptUrl: "/assets/scalar.js", csp: false }),
);
app.get(
  "/assets/scalar.js",
  () => new Response(scalar, { headers: { "content-type": "text/javascript; charset=utf-8" } }),
);
app.get(
  "/pets",
  defineEndpoint({
    doc: { summary: "List all pets" },
    params: { query: { limit: t.int32() } },
    call: () => Response.json([]),
  }),
);
app.get("/openapi.json", () => Response.json(openapi(app, { info: { title: "CSP check", version: "1" } })));
app.get("/unsigned", () => {
  const page = `<!doctype html><title>before</title><script>document.title = "ran";</script>`;
  return new Response(page, { headers: { "content-type": "text/html" } });
});

const chromium = servedInChromium(app);

// Opens a page, collects what the browser reports blocked by the policy (each violation event, as
// `directive blocked-uri`), and runs the checks on it.
async function onPage(path: string, check: (page: Page, blocked: () => Promise<string[]>) => Promise<void>) {
  const page = await chromium.browser.newPage();
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as { violations?: string[] }).violations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  const blocked = () =>
    page.evaluate(() => [...new Set((globalThis as { violations?: string[] }).violations)]);
  try {
    await page.goto(new URL(path, chromium.server.url).href);
    await check(page, blocked);
  } finally {
    await page.close();
  }
}

// What decides "styled": Scalar's root element has its font and layout (unstyled, it is a block in the
// browser's serif font), and the sidebar is a column, not the page's width.
const looks = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector(".scalar-app");
    const style = root === null ? undefined : getComputedStyle(root);
    return {
      font: style?.fontFamily ?? "",
      display: style?.display ?? "",
      sidebar: Number.parseFloat(getComputedStyle(document.querySelector("aside") ?? document.body).width),
      sheets: document.styleSheets.length,
    };
  });

// Scalar's bundled validator tries `Function("")` once to learn whether eval is allowed, and falls back.
const EVAL_PROBE = "script-src-elem eval";

for (const [path, fonts] of [
  ["/docs", "Scalar's (fonts.scalar.com)"],
  ["/docs-no-fonts", "the system's"],
] as const) {
  test(`docsPage(): the real Scalar renders styled under its own policy, with ${fonts} fonts; nothing else blocked`, () =>
    onPage(path, async (page, blocked) => {
      await page.getByText("List all pets").first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(500);
      const look = await looks(page);
      assert.doesNotMatch(look.font, /Times/, JSON.stringify(look));
      assert.equal(look.display, "grid", JSON.stringify(look));
      assert.ok(look.sidebar < 500, `the sidebar is a column (${look.sidebar}px)`);
      const violations = (await blocked()).filter((entry) => !/^script-src(-elem)? eval$/.test(entry));
      // Without network here, the font host is unreachable, not refused: a refusal would be listed.
      assert.deepEqual(violations, [], `${EVAL_PROBE} aside`);
    }));
}

test("docsPage({ csp: false }) under the app's nonce-only policy: Scalar's injected styles are refused (why the page has its own)", () =>
  onPage("/docs-app-policy", async (page, blocked) => {
    await page.getByText("List all pets").first().waitFor({ timeout: 20_000 });
    const look = await looks(page);
    assert.match(look.font, /Times|serif/, JSON.stringify(look));
    assert.ok((await blocked()).some((entry) => entry.startsWith("style-src")));
  }));

test("the HTML error page: its style applies under style-src with the nonce", () =>
  onPage("/no-such-page", async (page, blocked) => {
    const width = await page.evaluate(() => getComputedStyle(document.body).maxWidth);
    assert.equal(width, "640px", "the page's own style applied (max-width: 40rem)");
    assert.deepEqual(await blocked(), []);
  }));

test("a script without the nonce is blocked: the policy is in force", () =>
  onPage("/unsigned", async (page, blocked) => {
    assert.equal(await page.title(), "before");
    assert.ok((await blocked()).length > 0, "Chromium reported the blocked inline script");
  }));
