// Multipart bodies that arrive in pieces: every body is sent whole and in chunks of 1, 2, 3, 5 and 64
// bytes (the chunks split delimiters, padding and header blocks anywhere), and every split must give the
// whole body's answer — fields, files, streamed files, and the same 400 or 413 for a bad one. Found by the
// mutation run (bench/MUTATION.md): the parser's waiting states were only reached by runtime tests.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { createApp, defineEndpoint, t } from "../../src/mod.ts";

const B = "ChunkBoundary";
const part = (headers: string, body: string): string => `--${B}\r\n${headers}\r\n\r\n${body}\r\n`;
const field = (name: string, value: string): string =>
  part(`Content-Disposition: form-data; name="${name}"`, value);
const file = (name: string, body: string): string =>
  part(`Content-Disposition: form-data; name="${name}"; filename="f.txt"\r\nContent-Type: text/plain`, body);
const end = `--${B}--\r\n`;

const Form = defineEndpoint({
  params: {
    form: t.body(
      {
        title: v.string(),
        notes: v.optional(v.array(v.string())),
        doc: v.optional(t.file({ maxSize: 4096 })),
      },
      { require: true },
    ),
  },
  call: async (ep) => {
    const { title, notes, doc } = ep.params.form;
    return Response.json({ title, notes: notes ?? [], doc: doc === undefined ? null : await doc.text() });
  },
});

const Streamed = defineEndpoint({
  params: { form: t.body({ title: v.string(), upload: t.file({ stream: true }) }, { require: true }) },
  call: async (ep) => {
    const text = await new Response(ep.params.form.upload.stream()).text();
    return Response.json({ title: ep.params.form.title, upload: text });
  },
});

// A streamed file with an optional field that would follow it (a streamed file must be the last part).
const StreamedThenNote = defineEndpoint({
  params: {
    form: t.body({ upload: t.file({ stream: true }), note: v.optional(v.string()) }, { require: true }),
  },
  call: async (ep) => Response.json({ upload: await new Response(ep.params.form.upload.stream()).text() }),
});

const app = createApp({ limits: { bodySize: 8192, multipartHeaderSize: 256 } });
app.post("/form", Form);
app.post("/streamed", Streamed);
app.post("/streamed-then-note", StreamedThenNote);

const SIZES = [0, 1, 2, 3, 5, 64]; // 0: the body whole

function chunked(text: string, size: number): ReadableStream<Uint8Array> | string {
  if (size === 0) return text;
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      }
    },
  });
}

async function send(path: string, body: string, size: number): Promise<string> {
  const res = await app.request(path, {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${B}`, accept: "application/json" },
    body: chunked(body, size),
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  return `${res.status} ${res.status < 300 ? text : (JSON.parse(text) as { error: { message: string } }).error.message}`;
}

const sameForEverySplit = async (path: string, body: string, expected: string | RegExp): Promise<void> => {
  for (const size of SIZES) {
    const answer = await send(path, body, size);
    if (typeof expected === "string") assert.equal(answer, expected, `chunks of ${size || "all"}`);
    else assert.match(answer, expected, `chunks of ${size || "all"}`);
  }
};

describe("multipart bodies in pieces", () => {
  test("fields and a file, with a preamble, padding after boundaries and an epilogue", async () => {
    const body =
      `preamble text\r\n${field("title", "Hello")}--${B} \t \r\n` +
      `Content-Disposition: form-data; name="notes"\r\n\r\none\r\n${field("notes", "two")}` +
      `${file("doc", `line 1\r\n--${B.slice(0, 5)} not a boundary\r\nline 3`)}${end}epilogue`;
    await sameForEverySplit(
      "/form",
      body,
      `200 ${JSON.stringify({ title: "Hello", notes: ["one", "two"], doc: `line 1\r\n--${B.slice(0, 5)} not a boundary\r\nline 3` })}`,
    );
  });

  test("a streamed file, read as it arrives, then the closing delimiter", async () => {
    const content = "x".repeat(300) + `\r\n--${B.slice(0, -1)}x`.repeat(3);
    await sameForEverySplit(
      "/streamed",
      `${field("title", "T")}${file("upload", content)}${end}`,
      `200 ${JSON.stringify({ title: "T", upload: content })}`,
    );
  });

  test("bad bodies are refused alike however they are split", async () => {
    const cases: [string, string, RegExp][] = [
      [
        "/form",
        `${"p".repeat(400)}${field("title", "x")}${end}`,
        /^400 .*does not start with its multipart boundary/,
      ],
      ["/form", `--${B}${" ".repeat(1100)}\r\n`, /^400 .*too much padding/],
      ["/form", `--${B}xx\r\n`, /^400 .*malformed multipart boundary line/],
      ["/form", `--${B}\r\nX-Long: ${"h".repeat(300)}\r\n\r\nv\r\n${end}`, /^400 .*headers are too large/],
      ["/form", `${field("title", "x")}--${B}`, /^400 /],
      ["/form", `${field("title", "x".repeat(9000))}${end}`, /^413 /],
      ["/streamed", `${field("title", "T")}${file("upload", "data")}`, /^400 .*unterminated/],
    ];
    for (const [path, body, expected] of cases) {
      const whole = await send(path, body, 0);
      assert.match(whole, expected, body.slice(0, 60));
      for (const size of SIZES.slice(1))
        assert.equal(await send(path, body, size), whole, `chunks of ${size}`);
    }
    // At the limits, exactly: a part's header block of 256 bytes, 1024 bytes of padding after a boundary, a
    // preamble of 256 bytes before the first (its line break included); one byte more is refused.
    const head = (size: number) => {
      const first = `Content-Disposition: form-data; name="title"\r\nX-Pad: `;
      return `--${B}\r\n${first}${"h".repeat(size - first.length)}\r\n\r\nHi\r\n${end}`;
    };
    await sameForEverySplit(
      "/form",
      head(256),
      `200 ${JSON.stringify({ title: "Hi", notes: [], doc: null })}`,
    );
    await sameForEverySplit("/form", head(257), /^400 .*headers are too large/);
    const padded = (n: number) =>
      `--${B}${" ".repeat(n)}\r\n${field("title", "Hi").slice(B.length + 4)}${end}`;
    await sameForEverySplit(
      "/form",
      padded(1024),
      `200 ${JSON.stringify({ title: "Hi", notes: [], doc: null })}`,
    );
    await sameForEverySplit("/form", padded(1025), /^400 .*too much padding/);
    const preamble = (n: number) => `${"p".repeat(n - 2)}\r\n${field("title", "Hi")}${end}`;
    await sameForEverySplit(
      "/form",
      preamble(256),
      `200 ${JSON.stringify({ title: "Hi", notes: [], doc: null })}`,
    );
    await sameForEverySplit("/form", preamble(257), /^400 .*does not start with its multipart boundary/);
    // A header block that never ends is refused by its size, not read to the body's end.
    await sameForEverySplit("/form", `--${B}\r\nX-Long: ${"h".repeat(400)}`, /^400 .*headers are too large/);
    // An empty header block, and a boundary followed by one dash only.
    await sameForEverySplit("/form", `--${B}\r\n\r\n\r\nv\r\n${end}`, /^400 .*malformed part header/);
    await sameForEverySplit(
      "/form",
      `${field("title", "x")}--${B}-x\r\n`,
      /^400 .*malformed multipart boundary line/,
    );

    // A field after a streamed file is refused however it is split; which message depends on whether the
    // field was seen before the handler asked for the params (the file is handed over as it starts).
    const late = `${file("upload", "data")}${field("title", "late")}${end}`;
    for (const size of SIZES) assert.match(await send("/streamed", late, size), /^400 /, `chunks of ${size}`);
    // An optional field after it too: the file's stream ends with the error, not with the field dropped.
    await sameForEverySplit(
      "/streamed-then-note",
      `${file("upload", "data")}${field("note", "late")}${end}`,
      /^400 .*parts after a streamed file/,
    );
    await sameForEverySplit(
      "/streamed-then-note",
      `${file("upload", "data")}${end}`,
      `200 {"upload":"data"}`,
    );
    // The closing delimiter may end the body, with no line break after it (RFC 2046).
    await sameForEverySplit(
      "/streamed-then-note",
      `${file("upload", "data")}--${B}--`,
      `200 {"upload":"data"}`,
    );
    await sameForEverySplit(
      "/form",
      `${field("title", "x")}--${B}--`,
      `200 ${JSON.stringify({ title: "x", notes: [], doc: null })}`,
    );
    // The body ends after the file's content but before the closing delimiter: the stream fails.
    await sameForEverySplit("/streamed-then-note", `${file("upload", "data")}--${B}`, /^400 .*unterminated/);
  });
});
