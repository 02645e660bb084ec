import { TOKEN } from "../wire/contract.ts";

// How the client writes values on the wire: path values, query strings and forms as Portico reads
// them, bigints in JSON.

/** A bigint in JSON: a number when it is safe as one, else its digits as a string. */
export function jsonBigint(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : String(value);
}

/**
 * Query strings and forms as Portico reads them: `a[b]=1` for groups, repeated keys for arrays; a form
 * holding a file (a Blob) becomes FormData, for multipart/form-data.
 */
export function encodeForm(value: unknown, files = true): URLSearchParams | FormData {
  const pairs: [string, string | Blob][] = [];
  const add = (key: string, item: unknown): void => {
    if (item === undefined) return;
    if (Array.isArray(item)) for (const element of item) add(key, element);
    else if (item instanceof Blob) pairs.push([key, item]);
    else if (item !== null && typeof item === "object" && !(item instanceof Date)) {
      for (const [name, inner] of Object.entries(item)) add(`${key}[${name}]`, inner);
    } else pairs.push([key, scalar(item)]);
  };
  for (const [key, item] of Object.entries((value ?? {}) as Record<string, unknown>)) add(key, item);
  if (files && pairs.some(([, item]) => item instanceof Blob)) {
    const form = new FormData();
    for (const [key, item] of pairs) form.append(key, item);
    return form;
  }
  const out = new URLSearchParams();
  for (const [key, item] of pairs) out.append(key, typeof item === "string" ? item : "");
  return out;
}

/**
 * A path value, percent-encoded (`?`, `#`, `%`, `\` included); a wildcard's keeps its slashes between
 * segments. A value can only fill its own segments: an empty segment (a leading or doubled slash) or
 * a dot segment (`.`, `..`, which URLs resolve however they are encoded) is refused.
 */
export function encodeValue(value: unknown, multiSegment: boolean): string {
  const text = scalar(value);
  const segments = multiSegment ? text.split("/") : [text];
  const bad = segments.find((segment) => segment === "" || segment === "." || segment === "..");
  if (bad !== undefined) {
    const what = bad === "" ? "an empty segment" : "a dot segment";
    throw new TypeError(
      `The path value ${JSON.stringify(text.slice(0, 100))} has ${what}: it would change the path`,
    );
  }
  return segments.map(encodeURIComponent).join("/");
}

/**
 * A call's headers: a `HeadersInit`, or declared header params (values cast back to text: numbers,
 * booleans, dates as ISO strings; `undefined` left out).
 */
export function callHeaders(given: unknown): Headers {
  if (given === undefined || given instanceof Headers || Array.isArray(given))
    return new Headers(given as HeadersInit | undefined);
  const headers = new Headers();
  for (const [name, value] of Object.entries(given as Record<string, unknown>))
    if (value !== undefined) headers.set(name, scalar(value));
  return headers;
}

/** The `Cookie` header for declared cookie params, after any the call's headers already carry. */
export function cookieHeader(cookies: unknown, before: string | null): string {
  const pairs = Object.entries(cookies as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      if (!TOKEN.test(name)) throw new TypeError(`Invalid cookie name ${JSON.stringify(name.slice(0, 100))}`);
      return `${name}=${encodeURIComponent(scalar(value))}`;
    });
  return [...(before ? [before] : []), ...pairs].join("; ");
}

function scalar(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}
