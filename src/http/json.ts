/**
 * `JSON.stringify` that also writes bigints (as decimal strings, which keep their precision), without
 * slowing the common case: the replacer only runs after a plain stringify has refused a bigint.
 */
export function toJSON(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // Not only bigints throw a TypeError (cycles do too); a second failure is the caller's to report.
    return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "null";
  }
}
