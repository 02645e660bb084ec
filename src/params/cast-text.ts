const CAST_PREFIX = "cannot be cast from ";

/** The text of a failed cast: `cannot be cast from "abc" to Int32`. */
export function castText(input: unknown, typeName: string): string {
  return `${CAST_PREFIX}${show(input)} to ${typeName}`;
}

/** True when a message is a cast text (so it is shown as is, not as `is invalid: …`). */
export function isCastText(message: string): boolean {
  return message.startsWith(CAST_PREFIX);
}

/** A short, safe rendering of a client's value for a message. */
function show(input: unknown): string {
  if (typeof input === "string") return JSON.stringify(input.length > 64 ? `${input.slice(0, 64)}…` : input);
  if (typeof input === "number" || typeof input === "boolean" || typeof input === "bigint")
    return String(input);
  if (input === null) return "null";
  if (input === undefined) return "nothing";
  if (Array.isArray(input)) return "an array";
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? "an invalid date" : input.toISOString();
  return "an object";
}
