import assert from "node:assert/strict";
import { connect } from "node:net";
import * as v from "valibot";
import { getSignedCookie, setSignedCookie } from "../../../src/cookie/mod.ts";
import {
  bodyLimit,
  compress,
  cors,
  csrf,
  etag,
  type LogEntry,
  logger,
  secureHeaders,
  timeout,
} from "../../../src/middleware/mod.ts";
import { defineChannel, defineEndpoint, defineView, html, readBody, t } from "../../../src/mod.ts";
import { sse } from "../../../src/sse/mod.ts";
import { type Client, wsSession } from "../client.ts";
import { oneByteChunks, rawExchange } from "../raw.ts";
import type { Case, Topic } from "../suite.ts";

// The feature matrix: one namespace with every middleware on, every kind of route inside it, and each
// route met by each kind of client — a plain one, one that sends too much, one that sends one byte at a
// time, one that leaves mid-body, one that leaves mid-response. Every cell checks the documented answer
// and that the server answers on afterwards. (Memory under one-byte chunks is measured per runtime by
// tests/runtimes/tiny-chunks.test.ts.)

const LIMIT = 16 * 1024;
const SECRET = "matrix-secret-matrix-secret-0123";
// The statuses logger() reported, per path (the last few), for cases to read back.
const logged = new Map<string, number[]>();

// The JSON renderer hands over the whole record: the schema keeps `secret` on the server.
type ItemRecord = { id: number; q: string; secret: string };
const Item = defineView({
  schema: v.object({ id: v.number(), q: v.string() }),
  json: (data: ItemRecord) => data,
  html: (data: ItemRecord) => html`<b>${data.id}</b><i>${data.q}</i>`,
});

function routes(app: Parameters<Topic["routes"]>[0]): void {
  app.on("/mx", (r) => {
    r.use(
      logger({
        sink: (entry: LogEntry) =>
          logged.set(entry.path, [...(logged.get(entry.path) ?? []), entry.status].slice(-4)),
      }),
    );
    r.use(cors({ origin: ["https://app.example"] }));
    r.use(csrf());
    r.use(secureHeaders());
    r.use(etag());
    r.use(compress());
    r.use(bodyLimit(LIMIT));
    r.use(timeout(5000));
    r.get("/block", (ctx) => ctx.response.write("block"));
    r.get(
      "/item/:id",
      defineEndpoint({
        params: { path: { id: t.int32() }, query: { q: v.string() } },
        errors: { NotFound: 404 },
        call: (ep) => {
          if (ep.params.path.id === 0) throw new ep.errors.NotFound();
          return Item({ id: ep.params.path.id, q: ep.params.query.q, secret: "hunter2" });
        },
      }),
    );
    r.get(
      "/redirect",
      defineEndpoint({
        call: (ep) => {
          ep.redirect("/mx/block", 303);
        },
      }),
    );
    r.get(
      "/response",
      () => new Response("made", { status: 201, headers: { "content-type": "text/plain" } }),
    );
    r.get("/stream", () => {
      let sent = 0;
      const chunk = new TextEncoder().encode("s".repeat(4096));
      return new Response(
        new ReadableStream({
          pull(controller) {
            if (sent++ === 64) controller.close();
            else controller.enqueue(chunk);
          },
        }),
        { headers: { "content-type": "text/plain" } },
      );
    });
    r.get("/sse", (ctx) =>
      sse(ctx, async (stream) => {
        for (let n = 1; n <= 3; n++) await stream.send({ data: `e${n}`, id: String(n) });
      }),
    );
    r.get("/cookie", async (ctx) => {
      const seen = await getSignedCookie(ctx, "session", SECRET);
      if (seen === undefined) await setSignedCookie(ctx, "session", "s1", SECRET);
      ctx.response.write(seen === undefined ? "set" : seen === false ? "forged" : seen);
    });
    const Form = { name: v.string(), n: t.int32() };
    const echo = (p: { name: string; n: number }) => `${p.name}:${p.n}`;
    r.post(
      "/form",
      defineEndpoint({
        params: { form: Form },
        call: (ep) => void ep.context.response.write(echo(ep.params.form!)),
      }),
    );
    r.post(
      "/json",
      defineEndpoint({
        params: { json: Form },
        call: (ep) => void ep.context.response.write(echo(ep.params.json!)),
      }),
    );
    r.post(
      "/upload",
      defineEndpoint({
        params: { form: { note: v.string(), file: t.file({ maxSize: LIMIT }) } },
        call: (ep) => void ep.context.response.write(`${ep.params.form!.note}:${ep.params.form!.file.size}`),
      }),
    );
    r.post(
      "/upload-stream",
      defineEndpoint({
        params: { form: { note: v.string(), file: t.file({ stream: true }) } },
        call: async (ep) => {
          let size = 0;
          const reader = ep.params.form!.file.stream().getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read())
            size += read.value.byteLength;
          ep.context.response.write(`${ep.params.form!.note}:${size}`);
        },
      }),
    );
    r.post("/raw", async (ctx) => ctx.response.write(String((await readBody(ctx)).byteLength)));
    r.get("/logged", (ctx) => ctx.response.write(JSON.stringify(Object.fromEntries(logged))));
    r.ws("/ws", (socket) => {
      socket.onMessage((message) => socket.send(`echo ${String(message)}`));
    });
    r.ws(
      "/room/:name",
      defineChannel({
        params: { path: { name: v.string() } },
        onOpen(ch) {
          ch.subscribe(`mx:${ch.params.path.name}`);
          ch.send("in");
        },
        onMessage(ch, message) {
          ch.publish(`mx:${ch.params.path.name}`, String(message), { self: true });
        },
      }),
    );
  });
}

/** A request kind: what a plain client sends and what it gets. */
interface Kind {
  readonly name: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * For bodies: the content type, a body of about `size` bytes, and the exact answer to that body (a
   * pattern would pass a value cut short).
   */
  readonly body?: { readonly type: string; make(size: number): Buffer; answer(size: number): string };
  readonly status: number;
  readonly text: string | RegExp;
}

const BOUNDARY = "mxboundary";
const multipart = (size: number): Buffer =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${"f".repeat(size)}\r\n--${BOUNDARY}--\r\n`,
  );
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

const KINDS: readonly Kind[] = [
  { name: "block", path: "/mx/block", status: 200, text: "block" },
  {
    name: "endpoint, JSON view (only its declared fields)",
    path: "/mx/item/7?q=x",
    headers: { accept: "application/json" },
    status: 200,
    text: '{"id":7,"q":"x"}',
  },
  {
    name: "endpoint, HTML view",
    path: "/mx/item/7?q=%3Cx%3E",
    headers: { accept: "text/html" },
    status: 200,
    text: "<b>7</b><i>&lt;x&gt;</i>",
  },
  {
    name: "declared error",
    path: "/mx/item/0?q=x",
    headers: { accept: "application/json" },
    status: 404,
    text: /"name":"Not Found"/,
  },
  {
    name: "parameter error",
    path: "/mx/item/abc?q=x",
    status: 400,
    text: /cannot be cast from "abc" to Int32/,
  },
  { name: "redirect", path: "/mx/redirect", status: 303, text: "" },
  { name: "returned Response", path: "/mx/response", status: 201, text: "made" },
  { name: "streamed body", path: "/mx/stream", status: 200, text: "s".repeat(64 * 4096) },
  { name: "SSE", path: "/mx/sse", status: 200, text: /data: e1\n[\s\S]*data: e3\n/ },
  { name: "signed cookie", path: "/mx/cookie", status: 200, text: "set" },
  {
    name: "form endpoint",
    path: "/mx/form",
    body: {
      type: "application/x-www-form-urlencoded",
      make: (size) => Buffer.from(`n=5&name=${"a".repeat(size)}`),
      answer: (size) => `${"a".repeat(size)}:5`,
    },
    status: 200,
    text: /^a+:5$/,
  },
  {
    name: "JSON endpoint",
    path: "/mx/json",
    body: {
      type: "application/json",
      make: (size) => Buffer.from(JSON.stringify({ name: "a".repeat(size), n: 5 })),
      answer: (size) => `${"a".repeat(size)}:5`,
    },
    status: 200,
    text: /^a+:5$/,
  },
  {
    name: "upload, buffered",
    path: "/mx/upload",
    body: { type: MULTIPART, make: multipart, answer: (size) => `hi:${size}` },
    status: 200,
    text: /^hi:\d+$/,
  },
  {
    name: "upload, streamed",
    path: "/mx/upload-stream",
    body: { type: MULTIPART, make: multipart, answer: (size) => `hi:${size}` },
    status: 200,
    text: /^hi:\d+$/,
  },
  {
    name: "readBody block",
    path: "/mx/raw",
    body: { type: "application/octet-stream", make: (size) => Buffer.alloc(size, 1), answer: String },
    status: 200,
    text: /^\d+$/,
  },
];

function origin(c: Client): string {
  if (!c.server) throw new Error("this case needs a real server");
  return c.server.origin;
}

async function plain(c: Client, kind: Kind, size = 1000): Promise<void> {
  const response = await c.fetch(kind.path, {
    method: kind.body ? "POST" : "GET",
    headers: { ...kind.headers, ...(kind.body && { "content-type": kind.body.type }) },
    ...(kind.body && { body: new Uint8Array(kind.body.make(size)) }),
  });
  const text = await response.text();
  assert.equal(response.status, kind.status, text.slice(0, 300));
  if (typeof kind.text === "string") assert.equal(text, kind.text);
  else assert.match(text, kind.text);
  // Every middleware did its part: secureHeaders() and logger() around each kind.
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
}

// The server still answers, and logger() reported what came before (with `status`, as its last entry
// for the path: it is written when the response is handed over, so it is waited for).
async function answersOn(c: Client, path: string, status?: number): Promise<void> {
  await plain(c, KINDS[0]!);
  const key = path.split("?")[0]!;
  const deadline = Date.now() + 5000;
  for (;;) {
    const entries = (await (await c.fetch("/mx/logged")).json()) as Record<string, number[]>;
    const last = entries[key]?.at(-1);
    if (last !== undefined && (status === undefined || last === status)) return;
    assert.ok(
      Date.now() < deadline,
      `logger() reported ${JSON.stringify(entries[key])} for ${key}, not ${status}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Opens a raw connection, writes `bytes`, waits for the first byte back (or a moment of the server's
// reading, when `untilAnswer` is false), then leaves.
function leave(c: Client, bytes: Buffer, untilAnswer: boolean): Promise<void> {
  const url = new URL(origin(c));
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(bytes, () => {
        if (!untilAnswer) {
          // Leave once the bytes are on the wire: the server is mid-body.
          socket.destroy();
          resolve();
        }
      });
    });
    socket.once("data", () => {
      socket.destroy();
      resolve();
    });
    socket.on("error", () => resolve());
    socket.on("close", () => resolve());
  });
}

function head(kind: Kind, length: number | undefined): string {
  const extra = Object.entries(kind.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
  const body = kind.body
    ? `Content-Type: ${kind.body.type}\r\n${length === undefined ? "" : `Content-Length: ${length}\r\n`}`
    : "";
  return `${kind.body ? "POST" : "GET"} ${kind.path} HTTP/1.1\r\nHost: x\r\n${extra.join("")}${body}\r\n`;
}

function cells(kind: Kind): Case[] {
  const name = (what: string) => `${kind.name} × ${what}`;
  const list: Case[] = [{ name: name("a plain client"), run: (c) => plain(c, kind) }];
  if (kind.body) {
    const body = kind.body;
    list.push(
      {
        name: name("a body over bodyLimit() (413, logged as 413)"),
        async run(c) {
          const response = await c.fetch(kind.path, {
            method: "POST",
            headers: { "content-type": body.type },
            body: new Uint8Array(body.make(LIMIT * 2)),
          });
          assert.equal(response.status, 413, await response.text());
          await answersOn(c, kind.path, 413);
        },
      },
      {
        name: name("a body in one-byte chunks"),
        needsServer: true,
        async run(c) {
          const answer = await rawExchange(
            origin(c),
            oneByteChunks(kind.path, body.type, body.make(300)),
            30_000,
          );
          assert.equal(answer.kind, "response");
          if (answer.kind !== "response") return;
          assert.equal(answer.status, kind.status, answer.body);
          // Every byte arrived: a value after the first multipart part was once cut to its first piece.
          assert.equal(answer.body, body.answer(300));
          await answersOn(c, kind.path);
        },
      },
      {
        name: name("a client that leaves mid-body"),
        needsServer: true,
        async run(c) {
          const whole = body.make(8000);
          await leave(
            c,
            Buffer.concat([Buffer.from(head(kind, whole.length)), whole.subarray(0, 4000)]),
            false,
          );
          await plain(c, kind);
          await answersOn(c, kind.path);
        },
      },
    );
  }
  list.push({
    name: name("a client that leaves mid-response"),
    needsServer: true,
    async run(c) {
      const whole = kind.body?.make(1000);
      await leave(c, Buffer.concat([Buffer.from(head(kind, whole?.length)), whole ?? Buffer.alloc(0)]), true);
      await answersOn(c, kind.path);
    },
  });
  return list;
}

const sockets: Case[] = [
  {
    name: "websocket route × a plain client",
    needsServer: true,
    async run(c) {
      const outcome = await wsSession(origin(c), "/mx/ws", { send: ["hi"], closeAfter: 1 });
      assert.deepEqual(outcome.messages, ["echo hi"]);
      await plain(c, KINDS[0]!);
    },
  },
  {
    name: "channel with topics × a plain client, and one that leaves at once",
    needsServer: true,
    async run(c) {
      const gone = await wsSession(origin(c), "/mx/room/r1", { closeAfter: 1 });
      assert.deepEqual(gone.messages, ["in"]);
      const outcome = await wsSession(origin(c), "/mx/room/r1", {
        onMessage: () => {},
        send: ["hello"],
        closeAfter: 2,
      });
      assert.deepEqual(outcome.messages, ["in", "hello"]);
      await plain(c, KINDS[0]!);
    },
  },
];

/** The feature matrix: every kind of route × every kind of client, with every middleware on. */
export const matrix: Topic = {
  name: "Feature matrix",
  routes,
  cases: [...KINDS.flatMap(cells), ...sockets],
};
