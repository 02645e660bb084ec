const encoder = new TextEncoder();
// What a Location header may carry as is: printable ASCII minus what URLs never leave unescaped.
const PLAIN = /^[!#$%&'()*+,\-./0-9:;=?@A-Z[\]_a-z~]*$/;

/**
 * A `Location` value as HTTP can send it: characters outside printable ASCII (and `"<>\^`{|}` and
 * space) are percent-encoded as UTF-8; `%` escapes already there are kept. CR and LF are refused by
 * the caller, since they would split the header.
 *
 * @example
 * encodeLocation("/café?q=ü"); // "/caf%C3%A9?q=%C3%BC"
 */
export function encodeLocation(location: string): string {
  if (PLAIN.test(location)) return location;
  let out = "";
  for (const char of location) {
    if (PLAIN.test(char)) out += char;
    else
      for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * True when `target` is a path on this site, safe to redirect to when it comes from the client (a
 * `?next=` parameter): one leading `/`, not `//host` or `/\host` (which browsers read as another
 * host), no scheme (`https:host`, `javascript:`), and no control character that browsers drop
 * (`/\t/host` becomes `//host`).
 *
 * @example
 * isLocalPath("/account");        // true
 * isLocalPath("//evil.example");  // false
 */
export function isLocalPath(target: string): boolean {
  if (target.charCodeAt(0) !== 47 /* / */) return false;
  const second = target.charCodeAt(1);
  if (second === 47 || second === 92 /* \ */) return false;
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  return true;
}
