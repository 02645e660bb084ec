// The documentation site, built as `npm run docs:build` builds it, served by portico/static (clean URLs)
// and read by Chromium: every page loads with no console error and no failed request, every internal link
// and anchor leads somewhere, and search finds a term on a guide page and on a reference page.
// Screenshots of the home page, a guide and a reference page go to .tmp/screenshots/.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { serve } from "../../src/adapters/node.ts";
import { createApp } from "../../src/mod.ts";
import { serveStatic } from "../../src/static/serve-static.ts";
import { root } from "../runtimes/processes.ts";
import { launchChromium } from "./chromium.ts";

const dist = join(root, "docs", ".vitepress", "dist");
const shots = join(root, ".tmp", "screenshots");
let browser: Browser;
let origin: string;
let close: () => Promise<void>;

// Every page of the site, as the URL path a clean link names (`/guide/routing`).
function pages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "assets" ? [] : pages(path);
    if (!entry.name.endsWith(".html") || entry.name === "404.html") return [];
    const url = `/${relative(dist, path)
      .replace(/\.html$/, "")
      .replace(/(^|\/)index$/, "$1")}`;
    return [url];
  });
}

before(async () => {
  execFileSync("npm", ["run", "docs:build"], { cwd: root, stdio: "pipe", timeout: 240_000 });
  const app = createApp();
  app.get("/*", serveStatic({ root: dist, extensions: [".html"] }));
  const server = await serve(app, { port: 0, signals: false });
  origin = server.url.origin;
  close = () => server.close();
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
});
after(async () => {
  await browser?.close();
  await close?.();
});

async function visit(page: Page, path: string, problems: string[]): Promise<void> {
  const response = await page.goto(origin + path, { waitUntil: "load" });
  if (response?.status() !== 200) problems.push(`${path}: answered ${response?.status()}`);
}

test("every page loads without a console error or a failed request; every internal link and anchor resolves", async () => {
  const all = pages(dist);
  assert.ok(all.length > 40, `the site has ${all.length} pages`);
  const known = new Set(all.map((path) => path.replace(/\/$/, "") || "/"));
  const problems: string[] = [];
  const ids = new Map<string, Set<string>>();
  const links: { from: string; href: string }[] = [];
  const page = await browser.newPage();
  let current = "";
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`${current}: console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${current}: ${error.message}`));
  // A prefetch the next navigation cancels (net::ERR_ABORTED) is not a failure; anything else is.
  page.on("requestfailed", (request) => {
    const why = request.failure()?.errorText ?? "";
    if (why !== "net::ERR_ABORTED") problems.push(`${current}: request failed (${why}): ${request.url()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${current}: ${response.status()} for ${response.url()}`);
  });
  for (const path of all) {
    current = path;
    await visit(page, path, problems);
    ids.set(
      path.replace(/\/$/, "") || "/",
      new Set(await page.$$eval("[id]", (nodes) => nodes.map((node) => node.id))),
    );
    for (const href of await page.$$eval("a[href]", (nodes) =>
      nodes.map((node) => node.getAttribute("href") ?? ""),
    )) {
      links.push({ from: path, href });
    }
  }
  await page.close();
  for (const { from, href } of links) {
    if (/^(https?:|mailto:)/.test(href)) continue;
    const url = new URL(href, origin + from);
    if (url.origin !== origin) continue;
    const target = url.pathname.replace(/\.html$/, "").replace(/\/$/, "") || "/";
    if (!known.has(target)) {
      problems.push(`${from}: link to a page that does not exist: ${href}`);
      continue;
    }
    const anchor = decodeURIComponent(url.hash.slice(1));
    if (anchor !== "" && !ids.get(target)?.has(anchor))
      problems.push(`${from}: link to a missing anchor: ${href}`);
  }
  assert.deepEqual(problems, []);
});

test("on a narrow column no code sample runs off the edge: long lines wrap", async () => {
  const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
  const clipped: string[] = [];
  for (const path of ["/guide/middleware", "/guide/parameters", "/guide/getting-started"]) {
    await page.goto(`${origin}${path}`, { waitUntil: "networkidle" });
    const overflowing = await page.$$eval(
      ".vp-doc div[class*='language-'] pre",
      (nodes) => nodes.filter((node) => node.scrollWidth > node.clientWidth + 1).length,
    );
    if (overflowing > 0) clipped.push(`${path}: ${overflowing} code blocks wider than the column`);
  }
  await page.screenshot({ path: join(shots, "narrow.png"), fullPage: false });
  await page.close();
  assert.deepEqual(clipped, []);
});

test("search finds a term on a guide page and on a reference page", async () => {
  const page = await browser.newPage();
  await page.goto(`${origin}/`, { waitUntil: "networkidle" });
  await page.screenshot({ path: join(shots, "home.png") });
  await page.locator(".VPNavBarSearch button").click();
  await page.locator(".VPLocalSearchBox input").fill("serveStatic");
  await page.locator(".VPLocalSearchBox .result").first().waitFor();
  const results = await page.$$eval(".VPLocalSearchBox .result", (nodes) =>
    nodes.map((node) => node.getAttribute("href") ?? ""),
  );
  assert.ok(
    results.some((href) => href.includes("/guide/static-files")),
    `a guide: ${results.join(", ")}`,
  );
  // Guides rank above the reference entries they explain.
  const firstReference = results.findIndex((href) => href.includes("/reference/"));
  const firstGuide = results.findIndex((href) => href.includes("/guide/"));
  assert.ok(firstGuide < firstReference, `a guide first: ${results.join(", ")}`);
  assert.ok(
    results.some((href) => href.includes("/reference/")),
    `a reference page: ${results.join(", ")}`,
  );
  await page.goto(`${origin}/guide/static-files`, { waitUntil: "networkidle" });
  await page.screenshot({ path: join(shots, "guide.png"), fullPage: false });
  await page.goto(`${origin}/reference/portico/static/functions/serveStatic`, {
    waitUntil: "networkidle",
  });
  await page.screenshot({ path: join(shots, "reference.png"), fullPage: false });
  await page.close();
});
