// `ctx.response.headers` (http/response-headers.ts) behaves as the runtime's own `Headers` for any
// sequence of appends, sets and deletes: the same entries (sorted, `Set-Cookie` apart), the same `get`,
// `has` and `getSetCookie`. It refuses what `Headers` refuses, and more (control characters).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import "./settings.ts";
import { ResponseHeaders } from "../../src/http/response-headers.ts";

const NAMES = [
  "Content-Type",
  "content-type",
  "Vary",
  "VARY",
  "Set-Cookie",
  "set-cookie",
  "x-a",
  "X-B",
  "etag",
];
const value = fc.oneof(
  fc.stringMatching(/^[ \t]{0,2}[!-~][ -~]{0,10}[ \t]{0,2}$/),
  fc.constantFrom("", " ", "a, b", "id=1; Path=/", "é"),
);
const op = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), name: fc.constantFrom(...NAMES), value }),
  fc.record({ kind: fc.constant("set" as const), name: fc.constantFrom(...NAMES), value }),
  fc.record({
    kind: fc.constant("delete" as const),
    name: fc.constantFrom(...NAMES),
    value: fc.constant(""),
  }),
);

test("any sequence of appends, sets and deletes: the same headers as the runtime's Headers", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 24 }), (ops) => {
      const ours = new ResponseHeaders();
      const theirs = new Headers();
      for (const { kind, name, value: text } of ops) {
        if (kind === "delete") {
          ours.delete(name);
          theirs.delete(name);
        } else {
          ours[kind](name, text);
          theirs[kind](name, text);
        }
        assert.deepEqual([...ours], [...theirs]);
      }
      for (const name of NAMES) {
        assert.equal(ours.get(name), theirs.get(name), name);
        assert.equal(ours.has(name), theirs.has(name), name);
      }
      assert.deepEqual(ours.getSetCookie(), theirs.getSetCookie());
      assert.deepEqual([...ours.keys()], [...theirs.keys()]);
      assert.deepEqual([...ours.values()], [...theirs.values()]);
      const seen: [string, string][] = [];
      ours.forEach((v, k) => {
        seen.push([k, v]);
      });
      assert.deepEqual(seen, [...theirs.entries()]);
      // What the response is built from: the same headers again, over whatever the runtime put there
      // (a string body's type), and a copy that does not change with them.
      const copy = ours.copy();
      const sent = new Headers({ "content-type": "text/plain;charset=UTF-8" });
      ours.copyTo(sent);
      if (!ours.has("content-type")) sent.delete("content-type");
      assert.deepEqual([...sent], [...theirs]);
      ours.set("x-after", "1");
      assert.equal(copy.has("x-after"), false);
      assert.deepEqual([...copy], [...theirs]);
    }),
  );
});

test("the flat list joins a name's values on its own line, whatever the other values read like", () => {
  const headers = new ResponseHeaders();
  headers.set("x-a", "vary");
  headers.append("vary", "a");
  headers.append("vary", "b");
  headers.append("set-cookie", "x=1");
  headers.append("set-cookie", "y=2");
  assert.deepEqual(headers.flat(), ["x-a", "vary", "vary", "a, b", "set-cookie", "x=1", "set-cookie", "y=2"]);
});

test("refused as Headers refuses them (invalid names, CR, LF, NUL, beyond U+00FF), and control characters too", () => {
  const refuses = (fn: () => void) => assert.throws(fn, TypeError);
  for (const name of ["", "a b", "a:b", "é", "a\nb"]) {
    refuses(() => new Headers().set(name, "x"));
    refuses(() => new ResponseHeaders().set(name, "x"));
    refuses(() => new ResponseHeaders().get(name));
  }
  for (const text of ["a\nb", "a\rb", "a\u0000b", "a\u0100b"]) {
    refuses(() => new Headers().set("x-a", text));
    refuses(() => new ResponseHeaders().set("x-a", text));
    refuses(() => new ResponseHeaders().append("x-a", text));
  }
  // Stricter than Headers: a control character HTTP cannot carry.
  refuses(() => new ResponseHeaders().set("x-a", "a\u0001b"));
  assert.equal(new ResponseHeaders()[Symbol.toStringTag], "Headers");
});
