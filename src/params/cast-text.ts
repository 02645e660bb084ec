const CAST_PREFIX = "cannot be cast from ";

/** In place of a value a message must not show (a header's, a cookie's). */
export const HIDDEN: unique symbol = Symbol("hidden");

/** The text of a failed cast: `cannot be cast from "abc" to Int32` (`cannot be cast to Int32` for a hidden value). */
export function castText(input: unknown, typeName: string): string {
  return input === HIDDEN ? `cannot be cast to ${typeName}` : `${CAST_PREFIX}${show(input)} to ${typeName}`;
}

/** A cast text without its value: `cannot be cast to Int32`. */
export function withoutValue(text: string): string {
  return castText(HIDDEN, text.slice(text.lastIndexOf(" to ") + 4));
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
