// Reading the `Cookie` header (RFC 6265 §5.4): what `getCookie()` and the `cookies` params read.
import { TOKEN } from "../wire/contract.ts";

/**
 * The cookies of a `Cookie` header, by name, in an object with no inherited keys. The first of a
 * repeated name wins (browsers send the most specific path first); percent-encoded values are decoded.
 */
export function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (header === null) return cookies;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals < 0) continue;
    const name = pair.slice(0, equals).trim();
    if (!TOKEN.test(name) || name in cookies) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies[name] = decode(value);
  }
  return cookies;
}

function decode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
