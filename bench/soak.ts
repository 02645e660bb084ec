// The soak test (`npm run soak`, not part of `npm test`): mixed valid and hostile traffic on loopback
// against the Node adapter serving the conformance app, for 10 minutes (`--seconds=N` to change), with
// the server's RSS sampled. Prints requests by kind and answer, unexpected errors, and RSS over time.
//   npx tsx bench/soak.ts [--seconds=600] [--workers=16]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { frame, rawExchange, rawWebSocket } from "../tests/conformance/raw.ts";
import { root, startProcess } from "../tests/runtimes/processes.ts";

const seconds = Number(process.argv.find((arg) => arg.startsWith("--seconds="))?.slice(10) ?? 600);
const workers = Number(process.argv.find((arg) => arg.startsWith("--workers="))?.slice(10) ?? 16);

interface Kind {
  readonly name: string;
  /** The answers that are right for it (a status, or how a connection may end). */
  readonly expected: readonly (number | string)[];
  run(origin: string): Promise<number | string>;
}

const json = { "content-type": "application/json" };
const fetched = async (origin: string, path: string, init?: RequestInit): Promise<number> => {
  const res = await fetch(origin + path, init);
  await res.arrayBuffer();
  return res.status;
};
const raw = async (origin: string, bytes: string): Promise<number | string> => {
  const answer = await rawExchange(origin, bytes, 5000);
  return answer.kind === "response" ? answer.status : answer.kind;
};

const kinds: readonly Kind[] = [
  { name: "GET endpoint", expected: [200], run: (o) => fetched(o, "/api/users/1?limit=3") },
  {
    name: "GET search",
    expected: [200],
    run: (o) => fetched(o, "/api/search?q=x&tags[]=a&page[size]=2&big=9007199254740993"),
  },
  {
    name: "POST JSON",
    expected: [201],
    run: (o) =>
      fetched(o, "/api/users", {
        method: "POST",
        headers: json,
        body: '{"user":{"name":"Ann","email":"a@b.co"}}',
      }),
  },
  {
    name: "POST form",
    expected: [200],
    run: (o) =>
      fetched(o, "/api/submit", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "user[name]=A&user[age]=3",
      }),
  },
  { name: "not found", expected: [404], run: (o) => fetched(o, "/nowhere/at/all") },
  { name: "bad param", expected: [400], run: (o) => fetched(o, "/api/users/abc") },
  {
    name: "malformed JSON",
    expected: [400],
    run: (o) => fetched(o, "/api/users", { method: "POST", headers: json, body: '{"user":' }),
  },
  {
    name: "escaped __proto__",
    expected: [400],
    run: (o) =>
      fetched(o, "/api/users", {
        method: "POST",
        headers: json,
        body: '{"\\u005f_proto__":{"a":1},"user":{"name":"A","email":"a@b.co"}}',
      }),
  },
  {
    name: "deep JSON",
    expected: [400],
    run: (o) =>
      fetched(o, "/api/users", {
        method: "POST",
        headers: json,
        body: `{"user":${"[".repeat(200)}${"]".repeat(200)}}`,
      }),
  },
  {
    // The server answers 413 and stops reading: a client still sending may meet the reset first.
    name: "body over limit",
    expected: [413, "error: fetch failed"],
    run: (o) =>
      fetched(o, "/api/users", { method: "POST", headers: json, body: "x".repeat(1024 * 1024 + 10) }),
  },
  {
    name: "many wrong items",
    expected: [400],
    run: (o) =>
      fetched(o, "/edge/numbers", {
        method: "POST",
        headers: json,
        body: `{"items":[${Array(20_000).fill('"x"').join(",")}]}`,
      }),
  },
  { name: "ReDoS path", expected: [404], run: (o) => fetched(o, `/edge/r3/${"a-".repeat(3000)}/x`) },
  {
    name: "dot segments",
    expected: [401],
    run: (o) => raw(o, "GET /h/public/../admin/secret HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
  },
  {
    name: "bad Host",
    expected: [400],
    run: (o) => raw(o, "GET / HTTP/1.1\r\nHost: evil.example:99999\r\nConnection: close\r\n\r\n"),
  },
  {
    name: "two Hosts",
    expected: [400],
    run: (o) => raw(o, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n"),
  },
  {
    name: "lower-case method",
    expected: [400],
    run: (o) => raw(o, "get / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
  },
  {
    name: "chunk extension",
    expected: [400, 413],
    run: (o) =>
      raw(
        o,
        `POST /h/body HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1;${"a".repeat(20000)}\r\nx\r\n0\r\n\r\n`,
      ),
  },
  { name: "bad status", expected: [500], run: (o) => fetched(o, "/edge/status/1000") },
  { name: "bad header", expected: [500], run: (o) => fetched(o, "/edge/header") },
  { name: "shared Response", expected: [204], run: (o) => fetched(o, "/edge/session") },
  {
    name: "half a request",
    expected: ["closed", "timeout"],
    run: async (o) => {
      const answer = await rawExchange(o, "GET / HTTP/1.1\r\nHost: x\r\nX-Slow:", 300);
      return answer.kind === "response" ? answer.status : answer.kind;
    },
  },
  {
    name: "websocket echo",
    expected: [1000],
    run: (o) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${o.replace("http", "ws")}/ws/echo`);
        ws.on("message", (data: Buffer) => {
          if (data.toString() === "ping") ws.close(1000);
        });
        ws.on("open", () => ws.send("ping"));
        ws.on("close", (code: number) => resolve(code));
        ws.on("error", reject);
      }),
  },
  {
    name: "websocket protocol error",
    expected: [1002],
    run: async (o) => {
      const answer = await rawWebSocket(o, "/ws/echo", frame(0x83, Buffer.from("x")), 3000);
      return answer.kind === "close" ? (answer.code ?? "no code") : answer.kind;
    },
  },
];

function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const server = await startProcess(process.execPath, [
  join(root, "node_modules", "tsx", "dist", "cli.mjs"),
  join(root, "tests", "runtimes", "entries", "node.ts"),
]);
const counts = new Map<string, number>();
const unexpected = new Map<string, number>();
const samples: { at: number; rss: number }[] = [];
const started = Date.now();
const deadline = started + seconds * 1000;
let requests = 0;
const note = (map: Map<string, number>, key: string): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};
const sampler = setInterval(
  () => samples.push({ at: (Date.now() - started) / 1000, rss: rss(server.pid) }),
  5000,
);
samples.push({ at: 0, rss: rss(server.pid) });

await Promise.all(
  Array.from({ length: workers }, async (_, worker) => {
    let i = worker;
    while (Date.now() < deadline) {
      const kind = kinds[i++ % kinds.length]!;
      let answer: number | string;
      try {
        answer = await kind.run(server.origin);
      } catch (error) {
        answer = `error: ${(error as Error).message.slice(0, 60)}`;
      }
      requests++;
      note(counts, `${kind.name} → ${answer}`);
      if (!kind.expected.includes(answer)) note(unexpected, `${kind.name} → ${answer}`);
    }
  }),
);
clearInterval(sampler);
samples.push({ at: (Date.now() - started) / 1000, rss: rss(server.pid) });
await server.stop();

const middle = samples[Math.floor(samples.length / 2)]!;
const peak = Math.max(...samples.map((s) => s.rss));
console.log(`Soak: ${requests} requests in ${seconds} s, ${workers} workers, ${kinds.length} kinds`);
for (const [key, count] of [...counts].sort()) console.log(`  ${key}: ${count}`);
console.log(`Unexpected answers: ${unexpected.size === 0 ? "none" : ""}`);
for (const [key, count] of unexpected) console.log(`  ${key}: ${count}`);
console.log(
  `RSS (MiB): start ${samples[0]!.rss.toFixed(1)}, middle ${middle.rss.toFixed(1)} (at ${middle.at.toFixed(0)} s), ` +
    `end ${samples.at(-1)!.rss.toFixed(1)}, peak ${peak.toFixed(1)}`,
);
process.exit(unexpected.size === 0 ? 0 : 1);
