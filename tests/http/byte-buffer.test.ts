// The byte buffer the body readers and the multipart parser keep pieces in: reused after `clear()`, it
// must hold exactly what was pushed since (a second part's value was cut to its first piece: every
// multipart field after the first, sent in more than one piece).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ByteBuffer } from "../../src/http/byte-buffer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (buffer: ByteBuffer) => new TextDecoder().decode(buffer.bytes());

test("pieces are joined, before and after clear(), whatever their sizes", () => {
  const buffer = new ByteBuffer();
  assert.equal(text(buffer), "");
  buffer.push(bytes("ab"));
  assert.equal(text(buffer), "ab");
  buffer.push(new Uint8Array(0));
  buffer.push(bytes("cd"));
  assert.equal(text(buffer), "abcd");
  buffer.clear();
  assert.equal(buffer.length, 0);
  assert.equal(text(buffer), "");
  for (const piece of ["o", "n", "e"]) buffer.push(bytes(piece));
  assert.equal(text(buffer), "one");
  assert.equal(buffer.length, 3);
  buffer.clear();
  const long = "x".repeat(3000);
  buffer.push(bytes("y"));
  buffer.push(bytes(long));
  assert.equal(text(buffer), `y${long}`);
  buffer.push(bytes("z"));
  assert.equal(text(buffer), `y${long}z`);
});

test("a single piece is kept as it is; a second one is copied", () => {
  const buffer = new ByteBuffer();
  const first = bytes("first");
  buffer.push(first);
  assert.equal(buffer.bytes(), first);
  buffer.push(bytes("!"));
  first[0] = 0x46; // "F": the buffer holds its own copy now
  assert.equal(text(buffer), "first!");
});
