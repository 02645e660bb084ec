// examples/realworld under load: requests per second and p99 for GET /api/articles (20 articles, without
// and with a token) and POST /api/articles, on the embedded database (PGlite) and on a PostgreSQL server.
// The app runs on Node 24 (compiled portico from dist/, the example's TypeScript stripped by Node),
// pinned to one core; wrk on the other. Writes REALWORLD.md.
//   npm run build && npx tsx bench/realworld.ts [--seconds 10]
import { join } from "node:path";
import { startProcess } from "../tests/runtimes/processes.ts";
import { nodeBin } from "../tests/runtimes/targets.ts";
import { startPostgres } from "../tests/services/postgres.ts";
import { root } from "./contestants.ts";
import { load, type RunningServer, SERVER_CORE } from "./measure.ts";
import { writePage } from "./report.ts";

const seconds = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 10;
const CONNECTIONS = 32;
const SECRET = "realworld-bench-secret-of-32-bytes-at-least";

async function seed(origin: string): Promise<string> {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${origin}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Token ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { user: { token: string }; article: { slug: string } };
  };
  const writer = (
    await post("/users", { user: { username: "writer", email: "w@example.com", password: "password1" } })
  ).user.token;
  const reader = (
    await post("/users", { user: { username: "reader", email: "r@example.com", password: "password1" } })
  ).user.token;
  await post("/profiles/writer/follow", {}, reader);
  for (let i = 0; i < 20; i++) {
    const { article } = await post(
      "/articles",
      {
        article: {
          title: `Article ${i}`,
          description: "d",
          body: "b".repeat(500),
          tagList: ["bench", `t${i % 4}`],
        },
      },
      writer,
    );
    if (i % 3 === 0) await post(`/articles/${article.slug}/favorite`, {}, reader);
  }
  return reader;
}

const rows: string[] = [
  "| database | scenario | requests/s | p99 (ms) | errors |",
  "|---|---|---:|---:|---:|",
];
const postgres = await startPostgres();
try {
  for (const [database, env] of [
    ["PGlite (in memory)", {}],
    ["PostgreSQL 15 (local server)", { DATABASE_URL: postgres.url }],
  ] as const) {
    const server: RunningServer = await startProcess(
      "taskset",
      ["-c", SERVER_CORE, nodeBin(24), join(root, "examples", "realworld", "node.ts")],
      { PORT: "0", JWT_SECRET: SECRET, NODE_ENV: "production", ...env },
    );
    try {
      const token = await seed(server.origin);
      process.env.CONDUIT_TOKEN = token;
      const scenarios = [
        { id: "list", title: "GET /api/articles (20, anonymous)", path: "/api/articles" },
        {
          id: "list-token",
          title: "GET /api/articles (20, with a token)",
          path: "/api/articles",
          headers: { authorization: `Token ${token}` },
        },
        {
          id: "create",
          title: "POST /api/articles",
          path: "/api/articles",
          script: join(root, "bench", "wrk", "realworld-post-article.lua"),
        },
      ];
      for (const scenario of scenarios) {
        await load(server, scenario, 2, CONNECTIONS, false); // warm-up
        const sample = await load(server, scenario, seconds, CONNECTIONS, false);
        rows.push(
          `| ${database} | ${scenario.title} | ${Math.round(sample.requestsPerSecond)} | ${sample.p99Ms.toFixed(1)} | ${sample.errors} |`,
        );
        console.log(rows.at(-1));
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  await postgres.stop();
}

writePage(
  "REALWORLD.md",
  "examples/realworld under load",
  "npm run build && npx tsx bench/realworld.ts",
  `, ${seconds} s per scenario after 2 s of warm-up, wrk with ${CONNECTIONS} connections.`,
  [
    "",
    "The app on Node 24 pinned to one core (portico compiled, from dist/; the example's TypeScript stripped by",
    "Node), wrk on the other core, on this 2-core machine. 20 articles by one author, a third of them favorited",
    "by the reader; the token is the reader's (so each listed article also says whether the reader favorited",
    "it and follows its author). The POST adds an article per request (the table grows during the run).",
    "PGlite is PostgreSQL compiled to WebAssembly inside the app's process: one connection, its queries one",
    "at a time on the app's core — the tail latency is queueing behind it. The PostgreSQL server is not pinned:",
    "it shares the two cores with the app and wrk.",
    "",
    ...rows,
  ],
);
