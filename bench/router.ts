// Router micro-benchmark (mitata): ns per match on Hono's router benchmark routes and requests.
//   npx tsx bench/router.ts · bun run bench/router.ts · deno run -A bench/router.ts
// Prints a JSON line per runtime (read by bench/run-routers.ts).

import findMyWay from "find-my-way";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";
import { Memoirist } from "memoirist";
import { measure } from "mitata";
import { addRoute, createRouter, findRoute } from "rou3";
import { compilePattern } from "../src/router/compile-pattern.ts";
import { RouteTable } from "../src/router/route-table.ts";

const routes: [method: string, path: string][] = [
  ["GET", "/user"],
  ["GET", "/user/comments"],
  ["GET", "/user/avatar"],
  ["GET", "/user/lookup/username/:username"],
  ["GET", "/user/lookup/email/:address"],
  ["GET", "/event/:id"],
  ["GET", "/event/:id/comments"],
  ["POST", "/event/:id/comment"],
  ["GET", "/map/:location/events"],
  ["GET", "/status"],
  ["GET", "/very/deeply/nested/route/hello/there"],
  ["GET", "/static/*"],
];

export const requests: { name: string; kind: "static" | "dynamic" | "full"; method: string; path: string }[] =
  [
    { name: "short static", kind: "static", method: "GET", path: "/user" },
    { name: "static with same radix", kind: "static", method: "GET", path: "/user/comments" },
    { name: "long static", kind: "static", method: "GET", path: "/very/deeply/nested/route/hello/there" },
    { name: "dynamic route", kind: "dynamic", method: "GET", path: "/user/lookup/username/hey" },
    { name: "mixed static dynamic", kind: "dynamic", method: "GET", path: "/event/abcd1234/comments" },
    { name: "post", kind: "dynamic", method: "POST", path: "/event/abcd1234/comment" },
    { name: "wildcard", kind: "dynamic", method: "GET", path: "/static/index.html" },
  ];

type Match = (method: string, path: string) => unknown;

function portico(): Match {
  const table = new RouteTable<number>(1000);
  for (const [i, [method, path]] of routes.entries()) table.add(method, compilePattern(path), i);
  return (method, path) => table.find(method, path);
}
function hono(Router: typeof RegExpRouter | typeof TrieRouter): Match {
  const router = new Router<number>();
  for (const [i, [method, path]] of routes.entries()) router.add(method, path, i);
  return (method, path) => router.match(method, path);
}
function fmw(): Match {
  const router = findMyWay();
  for (const [method, path] of routes) router.on(method as "GET", path, () => {});
  return (method, path) => router.find(method as "GET", path);
}
function rou3(): Match {
  const router = createRouter<number>();
  for (const [i, [method, path]] of routes.entries()) addRoute(router, method, path.replace("/*", "/**"), i);
  return (method, path) => findRoute(router, method, path);
}
function memoirist(): Match {
  const router = new Memoirist<number>();
  for (const [i, [method, path]] of routes.entries()) router.add(method, path, i);
  return (method, path) => router.find(method, path);
}
// The runtime's own URLPattern, tried route by route (Node 20 and 22 have none).
type PatternClass = new (init: { pathname: string }) => { exec(input: { pathname: string }): unknown };
function linearUrlPattern(URLPattern: PatternClass): Match {
  const compiled = routes.map(([method, path]) => [method, new URLPattern({ pathname: path })] as const);
  return (method, path) => {
    for (const [m, pattern] of compiled) if (m === method && pattern.exec({ pathname: path })) return pattern;
    return undefined;
  };
}

// Routes that need URLPattern's full syntax (a regex group, a suffix), for Portico and RegExpRouter.
function porticoFull(): Match {
  const table = new RouteTable<number>(1000);
  for (const [i, [method, path]] of routes.entries()) table.add(method, compilePattern(path), i);
  table.add("GET", compilePattern("/post/:id(\\d+)"), 100);
  table.add("GET", compilePattern("/files/:name.:ext"), 101);
  return (method, path) => table.find(method, path);
}

const routers: Record<string, Match> = {
  Portico: portico(),
  "Hono RegExpRouter": hono(RegExpRouter),
  "Hono TrieRouter": hono(TrieRouter),
  "find-my-way": fmw(),
  rou3: rou3(),
  memoirist: memoirist(),
};
const native = (globalThis as { URLPattern?: PatternClass }).URLPattern;
if (native) routers["linear URLPattern"] = linearUrlPattern(native);

const results: { router: string; request: string; kind: string; ns: number }[] = [];
for (const [router, match] of Object.entries(routers)) {
  for (const request of requests) {
    if (!match(request.method, request.path)) throw new Error(`${router} does not match ${request.path}`);
    const stats = await measure(() => match(request.method, request.path));
    results.push({ router, request: request.name, kind: request.kind, ns: stats.avg });
  }
}
const full = porticoFull();
for (const [name, path] of [
  ["regex group (full URLPattern)", "/post/1234"],
  ["suffix (full URLPattern)", "/files/report.pdf"],
] as const) {
  if (!full("GET", path)) throw new Error(`Portico does not match ${path}`);
  const stats = await measure(() => full("GET", path));
  results.push({ router: "Portico", request: name, kind: "full", ns: stats.avg });
}
const runtime =
  "Bun" in globalThis
    ? `Bun ${(globalThis as { Bun?: { version: string } }).Bun!.version}`
    : "Deno" in globalThis
      ? "Deno"
      : `Node ${process.version}`;
console.log(JSON.stringify({ runtime, results }));
