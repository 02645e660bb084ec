import { bodyError, paramMessage, paramsError } from "../errors/param-errors.ts";
import { FORBIDDEN_KEYS } from "../schema/entries.ts";

/**
 * Parses a JSON body that must be an object, within a nesting depth, with no key that could reach a
 * prototype. Every failure is a JSONBodyError (400), never a 500.
 */
export function parseJsonObject(text: string, maxDepth: number): Record<string, unknown> {
  if (text.trim() === "") throw bodyError("json", "Missing request body");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bodyError("json", "Malformed JSON body");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bodyError("json", "JSON body must be an object");
  }
  if (needsWalk(text, maxDepth)) walk(value, maxDepth);
  return value as Record<string, unknown>;
}

// Only a body with enough brackets to be too deep, or that could hold a forbidden key, needs the full
// walk of its parsed keys. A key can only decode to one of them if the text spells it literally or
// uses a \u escape (no other JSON escape yields a letter or "_"): checking for those is sound.
function needsWalk(text: string, maxDepth: number): boolean {
  if (
    text.includes("\\u") ||
    text.includes("__proto__") ||
    text.includes("constructor") ||
    text.includes("prototype")
  )
    return true;
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 123 || c === 91) && ++brackets > maxDepth) return true;
  }
  return false;
}

function walk(root: object, maxDepth: number): void {
  const stack: [value: object, depth: number, path: string[]][] = [[root, 1, []]];
  while (stack.length > 0) {
    const [value, depth, path] = stack.pop()!;
    if (depth > maxDepth) throw bodyError("json", `JSON body nests deeper than the limit of ${maxDepth}`);
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) {
        const at = [...path, key];
        throw paramsError("json", [{ path: at, message: paramMessage("json", at, "is not allowed") }]);
      }
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1, [...path, key]]);
    }
  }
}
