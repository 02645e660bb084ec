// The multipart reader and the stream it reads (found by the mutation run, bench/MUTATION.md): what is
// read after a refusal (a 400 drains the rest within the body limit, a 413 stops at once), that the
// reader is always released, and that a streamed file reads the body only as fast as it is consumed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HttpError } from "../../src/errors/http-error.ts";
import { readMultipart } from "../../src/params/multipart.ts";
import type { MultipartLimits, PartSink } from "../../src/params/part-head.ts";

const B = "ReaderBoundary";
const LIMITS: MultipartLimits = {
  bodySize: 1000,
  fields: 10,
  files: 10,
  fieldSize: 100,
  headerSize: 256,
  headerLines: 8,
};

// A reader over fixed chunks that records how many were read and whether it was cancelled.
function recording(chunks: string[]) {
  const log = { reads: 0, cancelled: false };
  const encoded = chunks.map((c) => new TextEncoder().encode(c));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = encoded[log.reads++];
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
      cancel() {
        log.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { reader: stream.getReader(), log };
}

function sink() {
  const got: { fields: [string, string][]; stream?: ReadableStream<Uint8Array> } = { fields: [] };
  const s: PartSink = {
    plan: (head) =>
      head.filename === undefined ? { kind: "field" } : { kind: "file", maxSize: 10_000, stream: true },
    field: (head, value) => got.fields.push([head.name, value]),
    file: () => assert.fail("no buffered files here"),
    stream: (_head, content) => {
      got.stream = content;
    },
  };
  return { s, got };
}

const fieldPart = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = `--${B}\r\nContent-Disposition: form-data; name="up"; filename="a.bin"\r\n\r\n`;

const refusal = async (promise: Promise<void>): Promise<number> => {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    return error.code;
  }
  return assert.fail("not refused");
};

describe("readMultipart", () => {
  test("a 400 reads the rest of the body (so the connection can be reused), then releases the reader", async () => {
    const { reader, log } = recording([`--${B}xx\r\n`, "rest 1", "rest 2", "rest 3"]);
    assert.equal(await refusal(readMultipart(reader, B, LIMITS, sink().s)), 400);
    assert.equal(log.reads, 5); // the four chunks, and the end
  });

  test("the drain after a 400 stops at the body limit", async () => {
    const chunks = [`--${B}xx\r\n`, ...Array.from({ length: 50 }, () => "y".repeat(100))];
    const { reader, log } = recording(chunks);
    assert.equal(await refusal(readMultipart(reader, B, LIMITS, sink().s)), 400);
    assert.ok(log.reads < 15, `read ${log.reads} chunks`);
    assert.equal(log.cancelled, true);
  });

  test("a 413 reads nothing more", async () => {
    const { reader, log } = recording([fieldPart("a", "x".repeat(200)), "more", "more"]);
    assert.equal(await refusal(readMultipart(reader, B, LIMITS, sink().s)), 413);
    assert.equal(log.reads, 1);
    assert.equal(log.cancelled, true);
  });

  test("a streamed file reads the body as it is consumed, and closes after the closing delimiter", async () => {
    const pieces = Array.from({ length: 20 }, (_, i) => `chunk ${i};`.padEnd(40, "."));
    const { reader, log } = recording([
      fieldPart("a", "1") + filePart,
      ...pieces,
      `\r\n--${B}--\r\n`,
      "epilogue",
    ]);
    const { s, got } = sink();
    await readMultipart(reader, B, LIMITS, s);
    assert.deepEqual(got.fields, [["a", "1"]]);
    const content = got.stream!.getReader();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(log.reads <= 3, `read ${log.reads} chunks before the file was read`);
    let text = "";
    for (;;) {
      const { done, value } = await content.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    assert.equal(text, pieces.join(""));
    assert.equal(log.reads, 22); // the epilogue is not read: the reader is released at the delimiter
    assert.equal(log.cancelled, true);
  });

  test("a streamed file's stream fails when the body ends early or has a part after it", async () => {
    // The tail, the error, the chunks read (and whether the end was read) and whether the reader was released.
    for (const [tail, message, reads, cancelled] of [
      ["", /unterminated/, 3, false],
      [`\r\n--${B}`, /unterminated/, 4, false],
      [`\r\n${fieldPart("late", "x")}--${B}--`, /parts after a streamed file/, 3, true],
    ] as const) {
      const { reader, log } = recording([filePart, "data", tail].filter((c) => c !== ""));
      const { s, got } = sink();
      await readMultipart(reader, B, LIMITS, s);
      await assert.rejects(new Response(got.stream).text(), message);
      assert.deepEqual([log.reads, log.cancelled], [reads, cancelled]);
    }
  });

  test("a streamed file's body may reach the body limit exactly", async () => {
    const tail = `\r\n--${B}--`;
    const size = LIMITS.bodySize - filePart.length - tail.length;
    const { reader } = recording([filePart, "z".repeat(size), tail]);
    const { s, got } = sink();
    await readMultipart(reader, B, LIMITS, s);
    assert.equal((await new Response(got.stream).text()).length, size);
  });

  test("a streamed file counts toward the body limit", async () => {
    const { reader } = recording([filePart, ...Array.from({ length: 20 }, () => "z".repeat(100))]);
    const { s, got } = sink();
    await readMultipart(reader, B, LIMITS, s);
    await assert.rejects(
      new Response(got.stream).text(),
      (error: unknown) => (error as HttpError).code === 413,
    );
  });
});
