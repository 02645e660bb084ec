// The scalar types at their edges, called directly: Int64's bounds and length cap, casts that must
// refuse rather than throw, and the fast checks' contract (a value only where valibot gives that very
// value, and a value, not "unsure", for the ordinary inputs they exist for). Found by the mutation run
// (bench/MUTATION.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { createApp, defineEndpoint } from "../../src/mod.ts";
import { openapi } from "../../src/openapi/mod.ts";
import { t } from "../../src/params/t.ts";
import { compileFastValidator } from "../../src/schema/fast-validate.ts";
import { CAST_FAILED, castFloat, INT64, SCALARS, UNSURE } from "../../src/schema/scalars.ts";

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

test("Int64 from text: exactly its bounds, at most 21 characters, and a refusal (not a throw) otherwise", () => {
  const cast = SCALARS.Int64.cast!;
  assert.equal(INT64.max, MAX);
  assert.equal(INT64.min, MIN);
  assert.equal(cast(String(MAX)), MAX);
  assert.equal(cast(String(MIN)), MIN);
  assert.equal(cast(String(MAX + 1n)), CAST_FAILED);
  assert.equal(cast(String(MIN - 1n)), CAST_FAILED);
  assert.equal(cast(`+${"0".repeat(19)}1`), 1n, "21 characters");
  assert.equal(cast(`+${"0".repeat(20)}1`), CAST_FAILED, "22 characters");
  for (const text of ["1.5", "abc", "", "1e3", "0x10", " 1", "--1"])
    assert.equal(cast(text), CAST_FAILED, text);
});

test("Float64 from text: decimals only, finite only", () => {
  assert.equal(castFloat("1.5e3"), 1500);
  assert.equal(castFloat(".5"), 0.5);
  for (const text of ["abc", "1.5x", "Infinity", "NaN", "1e999", "", "0x10", "1,5"]) {
    assert.equal(castFloat(text), CAST_FAILED, text);
  }
});

const CASES = {
  int32: { schema: t.int32(), ordinary: [0, -2147483648, 2147483647, 42] },
  int64: { schema: t.int64(), ordinary: [0, 42, MAX, MIN, 5n, Number.MAX_SAFE_INTEGER] },
  float: { schema: t.float(), ordinary: [0, 1.5, -2e10] },
  bool: { schema: t.bool(), ordinary: [true, false] },
  string: { schema: t.string(), ordinary: ["", "text"] },
} as const;
const ODD = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1.5,
  2147483648,
  -2147483649,
  2 ** 53,
  MAX + 1n,
  MIN - 1n,
  "1",
  "true",
  null,
  undefined,
  {},
  [],
];

test("the fast checks of the t helpers answer what valibot would, or that they are unsure", () => {
  for (const [name, { schema, ordinary }] of Object.entries(CASES)) {
    const check = compileFastValidator(schema);
    assert.ok(check !== undefined, name);
    for (const input of ordinary) {
      const fast = check(input);
      assert.notEqual(fast, UNSURE, `${name}: unsure of ${String(input)}, an input it exists for`);
      assert.deepEqual(fast, v.parse(schema, input), `${name}(${String(input)})`);
    }
    for (const input of ODD) {
      const fast = check(input);
      if (fast === UNSURE) continue;
      const parsed = v.safeParse(schema, input);
      assert.ok(parsed.success, `${name}: vouched for ${String(input)}, which valibot refuses`);
      assert.deepEqual(fast, parsed.output, `${name}(${String(input)})`);
    }
  }
});

test("a plain v.date() param: a date from text that starts with a calendar date, else a 400", async () => {
  const When = defineEndpoint({
    params: { query: { at: v.date() } },
    call: (ep) => Response.json({ at: ep.params.query.at.toISOString() }),
  });
  const app = createApp();
  app.get("/when", When);
  const at = async (text: string) => {
    const res = await app.request(`/when?at=${encodeURIComponent(text)}`);
    return `${res.status} ${res.status === 200 ? ((await res.json()) as { at: string }).at : ""}`;
  };
  assert.equal(await at("2024-01-02"), "200 2024-01-02T00:00:00.000Z");
  assert.equal(await at("2024-01-02T03:04:05Z"), "200 2024-01-02T03:04:05.000Z");
  for (const bad of ["1", "yesterday", "2024-13-45", "Jan 2 2024"]) assert.equal(await at(bad), "400 ", bad);
});

test("the document says the formats of floats and files", () => {
  const Upload = defineEndpoint({
    params: { query: { ratio: t.float() }, form: t.body({ doc: t.file() }, { require: true }) },
    call: () => undefined,
  });
  const app = createApp();
  app.post("/upload", Upload);
  const doc = JSON.stringify(openapi(app, { info: { title: "t", version: "1" } }));
  assert.match(doc, /"name":"ratio".*?"format":"double"/);
  assert.match(doc, /"doc":\{[^}]*"format":"binary"/);
});
