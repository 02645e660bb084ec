// Multipart limits at their edge: exactly the limit passes, one more is refused — files, fields, a text
// field's size and a part's header lines (the corpus of tests/conformance sends far over each).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as v from "valibot";
import { createApp, defineEndpoint, t } from "../../src/mod.ts";

const B = "EdgeBoundary";
const part = (headers: string, body: string): string => `--${B}\r\n${headers}\r\n\r\n${body}\r\n`;
const field = (name: string, value: string, extra = ""): string =>
  part(`Content-Disposition: form-data; name="${name}"${extra}`, value);
const file = (): string => part('Content-Disposition: form-data; name="docs[]"; filename="d.txt"', "x");

const Upload = defineEndpoint({
  params: {
    form: t.body(
      {
        title: v.string(),
        notes: v.optional(v.array(v.string())),
        docs: v.optional(v.array(t.file({ maxSize: 64 }))),
      },
      { require: true },
    ),
  },
  call: (ep) =>
    Response.json({ notes: ep.params.form.notes?.length ?? 0, docs: ep.params.form.docs?.length ?? 0 }),
});

const app = createApp({
  limits: { multipartFiles: 3, paramCount: 4, multipartFieldSize: 8, multipartHeaderLines: 3 },
});
app.post("/upload", Upload);

async function send(body: string): Promise<[number, string]> {
  const res = await app.request("/upload", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${B}`, accept: "text/plain" },
    body: `${body}--${B}--\r\n`,
  });
  return [res.status, await res.text()];
}

describe("multipart limits, at the edge", () => {
  test("files: exactly the limit passes, one more is a 400", async () => {
    assert.deepEqual(await send(field("title", "t") + file().repeat(3)), [200, '{"notes":0,"docs":3}']);
    const [status, text] = await send(field("title", "t") + file().repeat(4));
    assert.equal(status, 400);
    assert.match(text, /more than 3 files/);
  });

  test("fields: exactly the limit passes, one more is a 400", async () => {
    const notes = (n: number) => Array.from({ length: n }, (_, i) => field("notes[]", `n${i}`)).join("");
    assert.deepEqual(await send(field("title", "t") + notes(3)), [200, '{"notes":3,"docs":0}']);
    const [status, text] = await send(field("title", "t") + notes(4));
    assert.equal(status, 400);
    assert.match(text, /more than 4 fields/);
  });

  test("a text field: exactly its size passes, one byte more is a 413", async () => {
    assert.equal((await send(field("title", "12345678")))[0], 200);
    const [status, text] = await send(field("title", "123456789"));
    assert.equal(status, 413);
    assert.match(text, /"title" is larger than 8 bytes/);
  });

  test("a part's header lines: exactly the limit passes, one more is a 400", async () => {
    assert.equal((await send(field("title", "t", "\r\nX-A: 1\r\nX-B: 2")))[0], 200);
    const [status, text] = await send(field("title", "t", "\r\nX-A: 1\r\nX-B: 2\r\nX-C: 3"));
    assert.equal(status, 400);
    assert.match(text, /too many headers/);
  });
});
