/**
 * Portico's scalar types, by the name messages give them: how each is cast from the text of a path,
 * query or form source, how an unmodified `t` helper of it is checked without valibot, and its JSON
 * Schema format. Every bound and every type name is written here once.
 */

/** Casts a source string to a declared type; returns {@link CAST_FAILED} when it cannot. */
export type Caster = (text: string) => unknown;

/** What a caster returns for a string it cannot cast. */
export const CAST_FAILED: unique symbol = Symbol("cast failed");

/** What a fast check answers when it cannot vouch for the input: valibot then decides. */
export const UNSURE: unique symbol = Symbol("unsure");

/** Validates a value exactly as valibot would, for the schemas it knows, or answers {@link UNSURE}. */
export type FastValidator = (input: unknown) => unknown;

/** The bounds of an `Int32`. */
export const INT32: { readonly min: number; readonly max: number } = { min: -2147483648, max: 2147483647 };

/** The bounds of an `Int64`. */
export const INT64: { readonly min: bigint; readonly max: bigint } = {
  min: -(2n ** 63n),
  max: 2n ** 63n - 1n,
};

/** The bound of an `Epoch`, in seconds either side of 1970 (`new Date()` accepts ±8.64e15 ms). */
export const EPOCH_LIMIT: number = 8.64e12;

/** The name of a scalar type, as messages give it. */
export type ScalarName =
  | "Int32"
  | "Int64"
  | "Integer"
  | "Float64"
  | "Bool"
  | "String"
  | "Date"
  | "Epoch"
  | "File";

/** One scalar type. */
export interface Scalar {
  /** The cast of a source string (absent: the string is passed on as it is). */
  readonly cast?: Caster;
  /** The check of an unmodified `t` helper of this type (absent: valibot always runs). */
  readonly check?: FastValidator;
  /** An empty string is a value of this type rather than "missing". */
  readonly keepsEmpty?: true;
  /** What the JSON Schema says beyond the converter's reading of the valibot schema. */
  readonly json?: Readonly<Record<string, string>>;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function castInteger(text: string): unknown {
  if (!INTEGER.test(text)) return CAST_FAILED;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : CAST_FAILED;
}

/** Casts a decimal number (`Float64`, a number literal). */
export function castFloat(text: string): unknown {
  if (!DECIMAL.test(text)) return CAST_FAILED;
  const value = Number(text);
  return Number.isFinite(value) ? value : CAST_FAILED;
}

/** Casts `true` or `false` (`Bool`, a boolean literal). */
export function castBool(text: string): unknown {
  return text === "true" ? true : text === "false" ? false : CAST_FAILED;
}

/** Casts the date a plain `v.date()` expects (`t.date()` parses its own string). */
export function castDate(text: string): unknown {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text) ? CAST_FAILED : date;
}

const isInt32 = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= INT32.min && value <= INT32.max;

/** The scalar types, by name. */
export const SCALARS: Readonly<Record<ScalarName, Scalar>> = {
  Int32: {
    cast: (text) => {
      const value = castInteger(text);
      return isInt32(value) ? value : CAST_FAILED;
    },
    check: (value) => (isInt32(value) ? value : UNSURE),
    json: { format: "int32" },
  },
  Int64: {
    cast: (text) => {
      if (!INTEGER.test(text) || text.length > 21) return CAST_FAILED;
      const value = BigInt(text);
      return value >= INT64.min && value <= INT64.max ? value : CAST_FAILED;
    },
    check: (value) => {
      if (typeof value === "bigint") return value >= INT64.min && value <= INT64.max ? value : UNSURE;
      return typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : UNSURE;
    },
    json: { format: "int64" },
  },
  Integer: { cast: castInteger },
  Float64: {
    cast: castFloat,
    check: (value) => (typeof value === "number" && Number.isFinite(value) ? value : UNSURE),
    json: { format: "double" },
  },
  Bool: { cast: castBool, check: (value) => (typeof value === "boolean" ? value : UNSURE) },
  String: { check: (value) => (typeof value === "string" ? value : UNSURE), keepsEmpty: true },
  Date: { json: { format: "date-time", description: "ISO 8601 date or date-time; UTC without an offset" } },
  Epoch: { cast: castInteger, json: { description: "Unix time in whole seconds" } },
  File: { json: { type: "string", format: "binary" } },
};
