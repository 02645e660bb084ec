/** Joins a namespace prefix and a route path: `join("/users", "/")` → `/users`, `join("", "/")` → `/`. */
export function joinPath(prefix: string, path: string): string {
  if (!path.startsWith("/")) throw new TypeError(`Route path must start with "/": "${path}"`);
  if (prefix !== "" && !prefix.startsWith("/"))
    throw new TypeError(`Namespace prefix must start with "/": "${prefix}"`);
  let base = prefix;
  while (base.endsWith("/")) base = base.slice(0, -1);
  if (path === "/") return base === "" ? "/" : base;
  return base + path;
}
