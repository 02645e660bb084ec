import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import "./settings.ts";
import * as v from "valibot";
import { t } from "../../src/mod.ts";
import { compileFastValidator } from "../../src/schema/fast-validate.ts";
import { UNSURE } from "../../src/schema/scalars.ts";

// The compiled validator answers only what valibot would: whenever it vouches for an input, valibot
// accepts it with an equal output; otherwise valibot decides (and reports the issues).

type AnySchema = v.GenericSchema<unknown, unknown>;

// Schemas are generated as small descriptions (readable in a counterexample), then built.
type Description =
  | readonly ["leaf", string]
  | readonly ["optional", Description, unknown]
  | readonly ["nullish", Description]
  | readonly ["array", Description]
  | readonly ["object", Readonly<Record<string, Description>>];

const LEAVES: Readonly<Record<string, () => AnySchema>> = {
  "t.int32": () => t.int32() as AnySchema,
  "t.int64": () => t.int64() as AnySchema,
  "t.float": () => t.float() as AnySchema,
  "t.bool": () => t.bool() as AnySchema,
  "t.string": () => t.string() as AnySchema,
  "v.string": () => v.string() as AnySchema,
  "v.number": () => v.number() as AnySchema,
  "v.boolean": () => v.boolean() as AnySchema,
};

function build(description: Description): AnySchema {
  switch (description[0]) {
    case "leaf":
      return LEAVES[description[1]]!();
    case "optional":
      return (
        description[2] === undefined
          ? v.optional(build(description[1]))
          : v.optional(build(description[1]), description[2] as never)
      ) as AnySchema;
    case "nullish":
      return v.nullish(build(description[1])) as AnySchema;
    case "array":
      return v.array(build(description[1])) as AnySchema;
    case "object":
      return v.object(
        Object.fromEntries(Object.entries(description[1]).map(([k, d]) => [k, build(d)])),
      ) as AnySchema;
  }
}

const description: fc.Arbitrary<Description> = fc.letrec<{ d: Description }>((tie) => ({
  d: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...Object.keys(LEAVES)).map((name) => ["leaf", name] as const),
    fc
      .tuple(
        tie("d"),
        fc.oneof(fc.constant(undefined), fc.integer(), fc.string({ maxLength: 3 }), fc.boolean()),
      )
      .map(([inner, fallback]) => ["optional", inner, fallback] as const),
    tie("d").map((inner) => ["nullish", inner] as const),
    tie("d").map((inner) => ["array", inner] as const),
    fc
      .dictionary(fc.constantFrom("a", "b", "c", "toString"), tie("d"), { maxKeys: 3 })
      .map((entries) => ["object", entries] as const),
  ),
})).d;

const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.integer(),
    fc.double(),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.boolean(),
    fc.string({ maxLength: 4 }),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "toString"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

test("the compiled validator vouches only for what valibot accepts, with the same output", () => {
  fc.assert(
    fc.property(description, value, (d, input) => {
      const s = build(d);
      const fast = compileFastValidator(s);
      assert.ok(fast !== undefined, "every schema of these kinds compiles");
      const output = fast(input);
      if (output === UNSURE) return;
      const result = v.safeParse(s, input);
      assert.ok(
        result.success,
        `valibot refuses ${JSON.stringify(input, (_k, x) => (typeof x === "bigint" ? `${x}n` : x))}`,
      );
      assert.deepEqual(output, result.output);
    }),
    { numRuns: 2000 },
  );
});

test("a schema the validator does not know is left to valibot", () => {
  for (const s of [
    v.pipe(t.int32(), v.minValue(1)),
    v.picklist(["a", "b"]),
    t.date(),
    v.optional(t.int32(), () => 1),
  ]) {
    assert.equal(compileFastValidator(s as AnySchema), undefined);
  }
});
