// Production seams on real servers — Node 20, Node 24, Bun and Deno, each through its `serve()` with its
// defaults: the public URL behind a trusted proxy (and spoofing from anywhere else), and SIGTERM under
// load (no accepted request dropped, websockets closed with 1001, `onClose` last, the process gone).
import assert from "node:assert/strict";
import { connect } from "node:net";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import WebSocket from "ws";
import { rawExchange } from "../conformance/raw.ts";
import { makeStaticFixture } from "../static/fixture.ts";
import { root, type StartedProcess, startProcess, startWorker } from "./processes.ts";
import { nodeBin } from "./targets.ts";

const deno = join(root, "node_modules", ".bin", "deno");
const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const ENTRY = "tests/runtimes/entries/production.ts";
/** Each runtime, started with its own `serve()` on the production fixture. */
export const RUNTIMES: Record<string, (env: Record<string, string>) => Promise<StartedProcess>> = {
  "Node 20": (env) => startProcess(process.execPath, ["--import", "tsx", ENTRY], env),
  "Node 24": (env) => startProcess(nodeBin(24), [ENTRY], env),
  Bun: (env) => startProcess(bun, ["run", ENTRY], env),
  Deno: (env) => startProcess(deno, ["run", "--allow-net", "--allow-env", "--allow-read", ENTRY], env),
};

const fixture = makeStaticFixture();
after(() => fixture.remove());

const PROXIED = {
  "x-forwarded-for": "203.0.113.9",
  "x-forwarded-proto": "https",
  "x-forwarded-host": "public.example",
};

// A form posted from the public origin, through the proxy.
const PUBLIC_FORM: RequestInit = {
  method: "POST",
  headers: {
    ...PROXIED,
    origin: "https://public.example",
    "content-type": "application/x-www-form-urlencoded",
  },
  body: "a=1",
};

// Writes `requests` at once and reads until the server has been quiet for 500 ms or closed: the statuses
// of the answers, in order (the bodies here are short: no status line hides in one).
function pipeline(origin: string, requests: string): Promise<number[]> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(requests));
    let received = "";
    let quiet = setTimeout(done, 2000);
    function done() {
      socket.destroy();
      resolve([...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1])));
    }
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      clearTimeout(quiet);
      quiet = setTimeout(done, 500);
    });
    socket.on("close", () => {
      clearTimeout(quiet);
      done();
    });
    socket.on("error", reject);
  });
}

async function text(url: string, init?: RequestInit): Promise<[number, string]> {
  const res = await fetch(url, init);
  return [res.status, await res.text()];
}

for (const [runtime, start] of Object.entries(RUNTIMES)) {
  describe(`production seams on ${runtime}`, () => {
    const servers: StartedProcess[] = [];
    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
    });

    test("behind a trusted proxy, the public URL: ctx.request.url, Secure cookies, csrf's origin, the document's server", async () => {
      const server = await start({ TRUST_PROXY: "127.0.0.1,::1" });
      servers.push(server);
      const o = server.origin;
      assert.deepEqual(await text(`${o}/started`), [200, "true"], "onStart ran before the first answer");
      assert.deepEqual(await text(`${o}/url?q=1`, { headers: PROXIED }), [
        200,
        "https://public.example/url?q=1",
      ]);
      assert.deepEqual(await text(`${o}/ip`, { headers: PROXIED }), [200, "203.0.113.9"]);
      assert.deepEqual(await text(`${o}/url`), [200, `${o}/url`], "without the headers: the connection's");
      // A chain: the client's own X-Forwarded-Proto is left of what the trusted proxy appended.
      assert.deepEqual(
        await text(`${o}/url`, {
          headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9", "x-forwarded-proto": "http, https" },
        }),
        [200, `https://${new URL(o).host}/url`],
      );
      // What is not a scheme or a Host is ignored.
      assert.deepEqual(
        await text(`${o}/url`, {
          headers: { "x-forwarded-proto": "javascript", "x-forwarded-host": "evil.example/path" },
        }),
        [200, `${o}/url`],
      );
      const cookie = await fetch(`${o}/cookie`, { headers: PROXIED });
      assert.equal(cookie.headers.get("set-cookie"), "pref=1; Path=/; HttpOnly; Secure; SameSite=Lax");
      const plain = await fetch(`${o}/cookie`);
      assert.equal(plain.headers.get("set-cookie"), "pref=1; Path=/; HttpOnly; SameSite=Lax");
      assert.deepEqual(await text(`${o}/form`, PUBLIC_FORM), [200, "posted"]);
      const doc = (await (await fetch(`${o}/openapi.json`, { headers: PROXIED })).json()) as {
        servers: { url: string }[];
      };
      assert.deepEqual(doc.servers, [{ url: "https://public.example" }]);
    });

    test("currentContext(): each of twenty concurrent requests finds its own context after an await", async () => {
      const server = await start({});
      servers.push(server);
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(`${server.origin}/current`);
          return [await res.text(), res.headers.get("x-request-id")];
        }),
      );
      for (const [body, id] of answers) assert.equal(body, id);
    });

    test("a client that reaches the app directly cannot choose its URL (GHSA-444r-cwp2-x5xf)", async () => {
      const server = await start({ TRUST_PROXY: "10.0.0.0/8" });
      servers.push(server);
      const o = server.origin;
      assert.deepEqual(await text(`${o}/url`, { headers: PROXIED }), [200, `${o}/url`]);
      assert.deepEqual(await text(`${o}/ip`, { headers: PROXIED }), [200, "127.0.0.1"]);
      const cookie = await fetch(`${o}/cookie`, { headers: PROXIED });
      assert.equal(cookie.headers.get("set-cookie"), "pref=1; Path=/; HttpOnly; SameSite=Lax");
      assert.equal((await text(`${o}/form`, PUBLIC_FORM))[0], 403, "its Origin is not the connection's");
      const doc = (await (await fetch(`${o}/openapi.json`, { headers: PROXIED })).json()) as {
        servers: { url: string }[];
      };
      assert.deepEqual(doc.servers, [{ url: o }]);
    });

    test("static files: streamed whole and in ranges, 304s, precompressed; hostile raw targets refused; a client leaving mid-file", async () => {
      const server = await start({ STATIC_ROOT: fixture.root });
      servers.push(server);
      const o = server.origin;
      const whole = await fetch(`${o}/assets/big.bin`);
      assert.equal(whole.headers.get("content-length"), String(fixture.big.length));
      assert.deepEqual(Buffer.from(await whole.arrayBuffer()), fixture.big);
      const part = await fetch(`${o}/assets/big.bin`, { headers: { range: "bytes=100000-100099" } });
      assert.deepEqual(
        [part.status, Buffer.from(await part.arrayBuffer())],
        [206, fixture.big.subarray(100000, 100100)],
      );
      const css = await fetch(`${o}/assets/css/a.css`);
      assert.deepEqual(
        [css.headers.get("content-type"), await css.text()],
        ["text/css; charset=utf-8", "body { color: red }\n"],
      );
      const cached = await fetch(`${o}/assets/css/a.css`, {
        headers: { "if-none-match": css.headers.get("etag")! },
      });
      assert.equal(cached.status, 304);
      const head = await fetch(`${o}/assets/big.bin`, { method: "HEAD" });
      assert.deepEqual([head.status, head.headers.get("content-length")], [200, String(fixture.big.length)]);
      const br = await rawExchange(
        o,
        "GET /assets/page.txt HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\nConnection: close\r\n\r\n",
      );
      assert.ok(
        br.kind === "response" &&
          br.headers.get("content-encoding") === "br" &&
          br.headers.get("vary") === "Accept-Encoding",
      );
      // A precompressed sibling leading outside the root is never served in the original's place.
      const bait = await rawExchange(
        o,
        "GET /assets/bait.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip\r\nConnection: close\r\n\r\n",
      );
      assert.ok(bait.kind === "response" && bait.body === "inside" && !bait.headers.has("content-encoding"));
      const bare = await rawExchange(o, "GET /assets/docs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assert.ok(
        bare.kind === "response" && bare.status === 301 && bare.headers.get("location") === "./docs/",
      );
      for (const target of [
        "/assets/../../secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/assets/%252e%252e/secret.txt",
        "/assets/..\\..\\secret.txt",
        "/assets/%5c..%5csecret.txt",
        "/assets/a%00.css",
        "/assets/%2fetc%2fpasswd",
        "/assets/%c0%ae%c0%ae/secret.txt",
        "/assets/leak.txt",
        "/assets/leakdir/x.txt",
        "/assets/.env",
        "/assets/empty/",
        "/assets/trap/",
        "/assets/sibling.txt",
        "/assets/siblingdir/key.txt",
        "/assets/css/a.css/",
      ]) {
        const answer = await rawExchange(o, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        assert.equal(answer.kind, "response", target);
        if (answer.kind !== "response") continue;
        assert.ok([400, 404].includes(answer.status), `${target}: ${answer.status}`);
        assert.doesNotMatch(answer.body, /outside|SECRET/, target);
      }
      // Pipelined requests (written at once): answered in order; on Bun, a connection whose first answer
      // waits on the file system is closed unanswered — Bun's own server does it (docs/guide/deployment.md).
      const twice = "GET /assets/css/a.css HTTP/1.1\r\nHost: x\r\n\r\n";
      const pipelined = await pipeline(
        o,
        `HEAD /assets/big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-3\r\n\r\n${twice}${twice}`,
      );
      const expected = runtime === "Bun" ? [] : [206, 200, 200];
      assert.deepEqual(pipelined, expected, `${runtime}: the statuses of three pipelined requests`);
      const quick = await pipeline(o, `GET /started HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(2));
      assert.deepEqual(quick, [200, 200], "answers made without waiting pipeline on every runtime");
      // A client that leaves a few bytes into a 4 MiB file: the server goes on answering.
      for (let i = 0; i < 5; i++) {
        const controller = new AbortController();
        const leaving = await fetch(`${o}/assets/big.bin`, { signal: controller.signal });
        const reader = leaving.body!.getReader();
        await reader.read();
        controller.abort();
      }
      assert.equal(await (await fetch(`${o}/assets/css/a.css`)).text(), "body { color: red }\n");
    });

    test("SIGTERM under load: every accepted request answered, websockets closed with 1001, onClose last, the process ends", async () => {
      const server = await start({});
      const o = server.origin;
      const socket = new WebSocket(`${o.replace("http", "ws")}/ws`);
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      const closeCode = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
      // Long requests in flight when the signal comes, and clients that keep asking through it.
      const long = Array.from({ length: 20 }, () => text(`${o}/slow?ms=1500`));
      let stop = false;
      let answered = 0;
      let refused = 0;
      const loops = Array.from({ length: 6 }, async () => {
        while (!stop) {
          try {
            const [status, body] = await text(`${o}/slow?ms=20`);
            assert.deepEqual([status, body], [200, "done"]);
            answered++;
          } catch (error) {
            if (error instanceof assert.AssertionError) throw error;
            refused++; // not accepted: the server stopped accepting
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      process.kill(server.pid, "SIGTERM");
      const results = await Promise.all(long);
      assert.deepEqual(results, Array(20).fill([200, "done"]), "every long request in flight was answered");
      assert.equal(await closeCode, 1001);
      await server.exited;
      stop = true;
      await Promise.all(loops);
      const closed = /CLOSED accepted=(\d+) answered=(\d+)/.exec(server.output());
      assert.ok(closed, `onClose did not run:\n${server.output()}`);
      assert.equal(Number(closed[1]), Number(closed[2]), "the server answered what it accepted");
      assert.equal(Number(closed[1]), 20 + answered, "the clients got every answer the server gave");
      assert.ok(answered > 0);
      assert.ok(refused > 0, "new requests were refused once the server stopped accepting");
    });
  });
}

describe("currentContext() on workerd", () => {
  test("with nodejs_compat each concurrent request finds its own context; without it, createApp says what is missing", async () => {
    const entry = join(root, "tests/runtimes/entries/context-worker.ts");
    const worker = await startWorker(entry, 0, undefined, undefined, ["nodejs_compat"]);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(`${worker.origin}/current`);
          return [await res.text(), res.headers.get("x-request-id")];
        }),
      );
      for (const [body, id] of answers) assert.equal(body, id);
    } finally {
      await worker.stop();
    }
    // Without the flag the Worker fails as it loads, and workerd prints why (Miniflare then rejects).
    const printed: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      await assert.rejects(startWorker(entry), /failed to start/);
    } finally {
      process.stderr.write = write;
    }
    assert.match(printed.join(""), /needs AsyncLocalStorage.*nodejs_compat/);
  });
});

describe("static files on workerd, through the static-assets binding", () => {
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  after(async () => {
    await worker?.stop();
  });
  test("a file is read through env.ASSETS; hostile paths are refused before it; without a binding a clear 500", async () => {
    worker = await startWorker(join(root, "tests/runtimes/entries/static-worker.ts"), 0, undefined, {
      directory: fixture.root,
      binding: "ASSETS",
    });
    const o = worker.origin;
    const css = await fetch(`${o}/assets/css/a.css`);
    assert.deepEqual([css.status, await css.text()], [200, "body { color: red }\n"]);
    assert.match(css.headers.get("content-type")!, /^text\/css/);
    for (const target of ["/assets/..%2f..%2fsecret.txt", "/assets/%5c..%5csecret.txt", "/assets/.env"]) {
      const answer = await rawExchange(o, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assert.ok(answer.kind === "response" && [400, 404].includes(answer.status), target);
    }
    const bare = await fetch(`${o}/bare/css/a.css`);
    assert.equal(bare.status, 500);
    assert.doesNotMatch(await bare.text(), /ASSETS|at /);
  });
});
