// One sample of bench/ab.ts on Bun or Deno (`--runtime=bun|deno`): the bench app built from the build's
// sources (AB_SOURCE, a `src/` folder), its `app.fetch` called with fresh `Request`s, every body read.
// With AB_SAMPLE set to `{ scenario, n, check? }` it prints CPU µs per request over `n` requests after
// `n` of warm-up (or, with `check`, the status line and body of one answer). On these runtimes a request
// made in process is not the server's (Bun's and Deno's own request path is left out), but all of
// Portico's JavaScript is in, and two builds compare on the same footing.
import type * as Middleware from "../src/middleware/mod.ts";
import type * as Portico from "../src/mod.ts";
import type { Scenario } from "./ab-drive.ts";
import { benchApp } from "./servers/bench-app.ts";

const source = process.env.AB_SOURCE!;
const asked = JSON.parse(process.env.AB_SAMPLE!) as { scenario: Scenario; n: number; check?: boolean };
const portico = (await import(`${source}/mod.ts`)) as typeof Portico;
const middleware = (await import(`${source}/middleware/mod.ts`)) as typeof Middleware;
const app = benchApp(portico, middleware);
const { scenario } = asked;
const url = `http://127.0.0.1:3000${scenario.url}`;
const init: RequestInit =
  scenario.body === ""
    ? { method: scenario.method, headers: { host: "127.0.0.1:3000", accept: "*/*" } }
    : {
        method: scenario.method,
        headers: { host: "127.0.0.1:3000", accept: "*/*", "content-type": "application/json" },
        body: scenario.body,
      };

async function once(): Promise<Response> {
  const response = await app.fetch(new Request(url, init));
  await response.arrayBuffer();
  return response;
}

if (asked.check) {
  const response = await app.fetch(new Request(url, init));
  process.stdout.write(JSON.stringify(`HTTP/1.1 ${response.status} ${await response.text()}`));
  process.exit(0);
}
for (let i = 0; i < asked.n; i++) await once();
const start = process.cpuUsage();
for (let i = 0; i < asked.n; i++) await once();
const used = process.cpuUsage(start);
process.stdout.write(String((used.user + used.system) / asked.n));
process.exit(0);
