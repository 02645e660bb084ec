import assert from "node:assert/strict";
import { readBody } from "../../../src/mod.ts";
import type { Client, Runtime } from "../client.ts";
import { Echo } from "../helpers.ts";
import { type FrameAnswer, frame, type RawAnswer, rawExchange, rawWebSocket } from "../raw.ts";
import type { Case, Topic } from "../suite.ts";

// Issue 15: the same hostile bytes, sent over a raw socket to every runtime. Where Portico sees the
// request, every runtime answers as Node does. Where the runtime decides before Portico sees anything,
// the runtime's own answer is checked as measured (and documented in the README, "Hostile requests").

/** What a row expects: a status (or one of several), or how the connection ends without a response. */
type Expected =
  | { readonly status: number | readonly number[]; readonly body?: RegExp }
  | { readonly ends: RawAnswer["kind"] };

interface Row {
  readonly name: string;
  /** The request (a function where it needs Buffer, which the Worker that loads this file lacks). */
  readonly bytes: string | (() => Buffer);
  readonly expected: Expected;
  /** Runtimes that decide before Portico sees the request, and what they do. */
  readonly runtimes?: Partial<Record<Runtime, Expected>>;
}

const HOST = "Host: good.example\r\nConnection: close\r\n";

function check(answer: RawAnswer, expected: Expected, what: string): void {
  if ("ends" in expected) {
    assert.equal(answer.kind, expected.ends, `${what}: ends without a response`);
    return;
  }
  assert.equal(answer.kind, "response", `${what}: a response`);
  if (answer.kind !== "response") return;
  const statuses = typeof expected.status === "number" ? [expected.status] : expected.status;
  assert.ok(
    statuses.includes(answer.status),
    `${what}: status ${answer.status}, expected ${statuses.join(" or ")}`,
  );
  if (expected.body) assert.match(answer.body, expected.body, `${what}: body`);
}

function rows(name: string, list: readonly Row[]): Case {
  return {
    name,
    needsServer: true,
    async run(c: Client) {
      for (const row of list) {
        const answer = await rawExchange(
          c.server!.origin,
          typeof row.bytes === "string" ? row.bytes : row.bytes(),
        );
        check(answer, row.runtimes?.[c.runtime] ?? row.expected, `${c.runtime}: ${row.name}`);
      }
    },
  };
}

const INVALID_HOST = { status: 400, body: /Invalid Host|Invalid request target/ };
// workerd fails on these URLs itself (an uncaught exception in its URL code), before the Worker runs.
const WORKERD_500 = { status: 500 };

/** Routes the hostile-request cases (issue 15) aim at: a guarded namespace beside a public wildcard. */
export const hostile: Topic = {
  name: "Hostile requests",
  routes(app) {
    app.on("/h/admin", (r) => {
      r.use((ctx, next) =>
        ctx.request.headers.get("authorization") === "Bearer ok"
          ? next()
          : new Response("guarded", { status: 401 }),
      );
      r.get("/*", (ctx) => Echo({ route: "admin", ...ctx.request.pathParams }));
    });
    app.get("/h/public/*", (ctx) => Echo({ route: "public", ...ctx.request.pathParams }));
    app.get("/h/whoami", (ctx) => Echo({ url: ctx.request.url, raw: ctx.request.raw.url }));
    app.get("/h/users/:id", (ctx) => Echo({ route: "user", ...ctx.request.pathParams }));
    app.post("/h/body", async (ctx) => {
      ctx.response.write(`read ${(await readBody(ctx)).byteLength}`);
    });
  },
  cases: [
    rows("hostile: dot segments, encoded or behind backslashes, never get past a guard", [
      {
        name: "raw dot segments",
        bytes: `GET /h/public/../admin/secret HTTP/1.1\r\n${HOST}\r\n`,
        expected: { status: 401 },
      },
      {
        name: "encoded dots",
        bytes: `GET /h/public/%2e%2e/admin/secret HTTP/1.1\r\n${HOST}\r\n`,
        expected: { status: 401 },
      },
      {
        name: "backslashes",
        bytes: `GET /h/public\\..\\admin\\secret HTTP/1.1\r\n${HOST}\r\n`,
        expected: { status: [401, 400] },
      },
    ]),
    rows("hostile: the origin comes from Host, never from an absolute-form target", [
      {
        name: "absolute-form",
        bytes: `GET http://evil.example/h/whoami HTTP/1.1\r\n${HOST}\r\n`,
        expected: {
          status: 200,
          body: /^\{"url":"http:\/\/good\.example\/h\/whoami","raw":"http:\/\/good\.example\/h\/whoami"\}$/,
        },
        runtimes: { workerd: WORKERD_500 },
      },
      {
        name: "absolute-form with https over plain HTTP: the scheme is the connection's",
        bytes: `GET https://evil.example/h/whoami HTTP/1.1\r\n${HOST}\r\n`,
        expected: {
          status: 200,
          body: /^\{"url":"http:\/\/good\.example\/h\/whoami","raw":"http:\/\/good\.example\/h\/whoami"\}$/,
        },
        // Deno hands over the client's URL and tells nothing of the connection's scheme (README); Bun
        // answers with its own URL.
        runtimes: {
          deno: {
            status: 200,
            body: /^\{"url":"https:\/\/good\.example\/h\/whoami","raw":"https:\/\/good\.example\/h\/whoami"\}$/,
          },
          workerd: WORKERD_500,
        },
      },
      {
        name: "a file: target is a 400",
        bytes: `GET file:///etc/passwd HTTP/1.1\r\n${HOST}\r\n`,
        expected: { status: 400, body: /only http and https/ },
        // Bun refuses it itself, with an empty 400; Deno takes it for a path.
        runtimes: { bun: { status: 400 }, deno: { status: 404 }, workerd: WORKERD_500 },
      },
      {
        name: "a POST to a file: target is a 400, never a 500",
        bytes: `POST file:///etc/passwd HTTP/1.1\r\n${HOST.replace("Connection: close\r\n", "")}Content-Length: 0\r\nConnection: close\r\n\r\n`,
        expected: { status: 400 },
        runtimes: { deno: { status: 404 }, workerd: WORKERD_500 },
      },
    ]),
    rows("hostile: a Host that is not host[:port] with a valid port is a 400", [
      {
        name: "a Host with a path",
        bytes: "GET /whoami HTTP/1.1\r\nHost: evil.example/h/users\r\nConnection: close\r\n\r\n",
        expected: INVALID_HOST,
        runtimes: { workerd: WORKERD_500 },
      },
      {
        name: "port 99999",
        bytes: "GET /h/whoami HTTP/1.1\r\nHost: evil.example:99999\r\nConnection: close\r\n\r\n",
        expected: INVALID_HOST,
        runtimes: { workerd: WORKERD_500 },
      },
      {
        name: "a space",
        bytes: "GET /h/whoami HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n",
        expected: INVALID_HOST,
        runtimes: { workerd: WORKERD_500 },
      },
      {
        name: "two Host headers",
        bytes: "GET /h/whoami HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n",
        expected: INVALID_HOST,
        // Deno refuses it itself, with an empty 400.
        runtimes: { deno: { status: 400 }, workerd: WORKERD_500 },
      },
    ]),
    rows("hostile: raw non-ASCII bytes in the target are a 400", [
      {
        name: "raw UTF-8",
        bytes: () =>
          Buffer.concat([
            Buffer.from("GET /h/caf"),
            Buffer.from("é"),
            Buffer.from(` HTTP/1.1\r\n${HOST}\r\n`),
          ]),
        expected: { status: 400 },
        // Bun's server and Miniflare's percent-encode the bytes before the app sees the URL.
        runtimes: { bun: { status: 404 }, workerd: { status: 404 } },
      },
    ]),
    rows("hostile: OPTIONS * asks about the server and never reaches a route", [
      {
        name: "OPTIONS *",
        bytes: `OPTIONS * HTTP/1.1\r\n${HOST}\r\n`,
        expected: { status: 204 },
        runtimes: { bun: { status: 400 }, workerd: WORKERD_500 },
      },
    ]),
    rows("hostile: a lower-case method is refused before the app", [
      {
        name: "get",
        bytes: `get /h/whoami HTTP/1.1\r\n${HOST}\r\n`,
        expected: { status: 400 },
        // Bun closes the connection without an answer; Miniflare answers 501.
        runtimes: { bun: { ends: "closed" }, workerd: { status: 501 } },
      },
    ]),
    rows("hostile: an HTTP/1.1 request without Host is a 400", [
      {
        name: "no Host",
        bytes: "GET /h/whoami HTTP/1.1\r\nConnection: close\r\n\r\n",
        expected: { status: 400 },
        // Deno gives the app `localhost:<port>` as host, and the app cannot tell HTTP/1.1 from 1.0.
        runtimes: { deno: { status: 200 } },
      },
    ]),
    rows("hostile: a 20 KB chunk extension is refused with a 4xx, never a 500", [
      {
        name: "chunk extension",
        bytes: `POST /h/body HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked\r\n\r\n1;${"a".repeat(20000)}\r\nx\r\n0\r\n\r\n`,
        expected: { status: [400, 413] },
      },
    ]),
    {
      name: "hostile: websocket protocol errors close with 1002",
      needsServer: true,
      async run(c) {
        const cases: [string, Buffer][] = [
          ["an unmasked client frame", frame(0x81, Buffer.from("hi"), false)],
          ["RSV1 without an extension", frame(0xc1, Buffer.from("hi"))],
          ["opcode 3", frame(0x83, Buffer.from("hi"))],
          ["a 126-byte ping", frame(0x89, Buffer.alloc(126))],
          ["a fragmented ping", frame(0x09, Buffer.from("hi"))],
        ];
        for (const [name, bytes] of cases) {
          const answer = await rawWebSocket(c.server!.origin, "/ws/echo", bytes, 1500);
          assert.deepEqual(answer, expectedFrameAnswer(c.runtime, name), `${c.runtime}: ${name}`);
        }
      },
    },
    {
      name: "hostile: invalid UTF-8 in a text frame or a close reason closes with 1007 (Deno and workerd: their own answer)",
      needsServer: true,
      async run(c) {
        const closeWithBadReason = Buffer.concat([Buffer.from([0x03, 0xe8]), Buffer.from([0xc3, 0x28])]);
        const cases: [string, Buffer][] = [
          ["a text frame", frame(0x81, Buffer.from([0xc3, 0x28]))],
          ["a fragment", Buffer.concat([frame(0x01, Buffer.from("ok")), frame(0x80, Buffer.from([0xff]))])],
          ["a close reason", frame(0x88, closeWithBadReason)],
        ];
        const answers: Record<string, FrameAnswer> = {};
        const expected: Record<string, FrameAnswer> = {};
        for (const [name, bytes] of cases) {
          answers[name] = await rawWebSocket(c.server!.origin, "/ws/echo", bytes, 1500);
          expected[name] = expectedUtf8Answer(c.runtime, name);
        }
        assert.deepEqual(answers, expected, c.runtime);
      },
    },
  ],
};

// Runtimes check UTF-8 in their websocket layer, before any JavaScript sees the frame (a bare server
// does the same; docs/guide/websockets.md): Deno's (fastwebsockets) ends the connection without a close
// frame; workerd's (Miniflare) lets a bad text frame through and answers a bad close reason with 1000.
function expectedUtf8Answer(runtime: Runtime, name: string): FrameAnswer {
  if (runtime === "deno") return { kind: "closed" };
  if (runtime === "workerd")
    return name === "a close reason" ? { kind: "close", code: 1000 } : { kind: "timeout" };
  return { kind: "close", code: 1007 };
}

// Deno's and workerd's websocket layers answer protocol errors themselves (Portico's handlers never see
// the frame): Deno drops the connection without a close frame, or leaves it open on an unmasked frame;
// workerd leaves it open on an unmasked frame or an oversized ping.
function expectedFrameAnswer(runtime: Runtime, name: string): FrameAnswer {
  if (runtime === "deno") return { kind: name === "an unmasked client frame" ? "timeout" : "closed" };
  if (runtime === "workerd" && (name === "an unmasked client frame" || name === "a 126-byte ping")) {
    return { kind: "timeout" };
  }
  return { kind: "close", code: 1002 };
}
