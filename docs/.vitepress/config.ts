// The documentation site: the guides (docs/guide/), the API reference TypeDoc writes from the JSDoc of
// every public entry (docs/reference/, made by `npm run docs:reference`), and a search index built into
// the site (no CDN: fonts, scripts and search are bundled, so it works offline).
import { existsSync, readFileSync } from "node:fs";
import { defineConfig } from "vitepress";

const guide = [
  ["Getting started", "getting-started"],
  ["Routing", "routing"],
  ["The context", "context"],
  ["Endpoints", "endpoints"],
  ["Parameters", "parameters"],
  ["Errors", "errors"],
  ["Views", "views"],
  ["OpenAPI and a typed client", "openapi-and-client"],
  ["Middleware", "middleware"],
  ["Cookies", "cookies"],
  ["Sessions", "sessions"],
  ["Static files", "static-files"],
  ["Observability", "observability"],
  ["Server-sent events", "server-sent-events"],
  ["Websockets and channels", "websockets"],
  ["Topics across instances", "topics"],
  ["Testing an app", "testing"],
  ["Migrating from Hono and Express", "migrating"],
  ["Upgrading from 0.2", "migrating-0.2"],
  ["Upgrading from 0.3", "migrating-0.3"],
  ["Stability and versions", "stability"],
  ["Running and deploying", "deployment"],
  ["Limits and hostile requests", "hostile-requests"],
  ["Options and safe defaults", "options"],
  ["Performance", "performance"],
  ["Decisions", "decisions"],
  ["Developing Portico", "development"],
] as const;

// TypeDoc's sidebar for the reference, once `npm run docs:reference` wrote it.
const referenceSidebar = new URL("../reference/typedoc-sidebar.json", import.meta.url);
const reference = existsSync(referenceSidebar) ? JSON.parse(readFileSync(referenceSidebar, "utf8")) : [];

export default defineConfig({
  title: "Portico",
  description: "A TypeScript HTTP framework on the Fetch API",
  cleanUrls: true,
  head: [["link", { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }]],
  lastUpdated: false,
  srcExclude: ["**/typedoc.json"],
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "Reference", link: "/reference/" },
    ],
    sidebar: {
      "/guide/": [{ text: "Guide", items: guide.map(([text, page]) => ({ text, link: `/guide/${page}` })) }],
      "/reference/": [{ text: "API reference", link: "/reference/", items: reference }],
    },
    search: {
      provider: "local",
      // A guide explains what a reference entry lists: guides first for the same words. (A reference
      // page's title is often the very term searched, which the default boosts fourfold.)
      options: {
        miniSearch: {
          searchOptions: { boostDocument: (id: string) => (id.startsWith("/reference/") ? 0.2 : 1) },
        },
      },
    },
    outline: { level: [2, 3] },
  },
});
