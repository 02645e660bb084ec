// What part of a URL may name a file under the root: checked before the file system is touched. The
// request's path reached the route with its dot segments removed (`%2e%2e` included) and `\` read as `/`
// (src/http/request-target.ts); the wildcard's part is percent-decoded once, and each of its segments is
// checked here: no `.`/`..`, no backslash (`%5C`), no NUL or control character, no `:` of a drive
// (`C:`), nothing a decoder could not read (an overlong UTF-8 `%C0%AE` decodes to U+FFFD), and no
// dotfile unless allowed. `%252e` decodes to the text `%2e` and stays that.

/** Why a path cannot name a file: `bad` (400), `hidden` (a dotfile: 404 or 403 as configured). */
export type PathRefusal = "bad" | "hidden";

/** The segments under the root a decoded wildcard names, or why not. An empty path names the root. */
export function fileSegments(path: string, dotfiles: "ignore" | "allow" | "deny"): string[] | PathRefusal {
  if (path.startsWith("/")) return "bad";
  const segments = path === "" ? [] : path.split("/");
  let hidden = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "") {
      if (i === segments.length - 1) continue; // a trailing slash: a directory
      return "bad";
    }
    if (segment === "." || segment === ".." || segment.length > 255) return "bad";
    if (hasForbidden(segment) || /^[A-Za-z]:/.test(segment)) return "bad";
    if (segment.startsWith(".") && dotfiles !== "allow") hidden = true;
  }
  if (hidden) return "hidden";
  return segments.filter((segment) => segment !== "");
}

/** True when `path` is `root` or inside it (both absolute, symlinks resolved). */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const base =
    root.endsWith("/") || root.endsWith("\\") ? root : `${root}${root.includes("\\") ? "\\" : "/"}`;
  return path.startsWith(base);
}

// A backslash, a control character (NUL included) or U+FFFD (what a decoder made of bytes that were no UTF-8).
function hasForbidden(segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c || c === 0xfffd) return true;
  }
  return false;
}
