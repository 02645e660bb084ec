/** Adds a name to `Vary` once (names are fixed by Portico, never taken from the request). */
export function appendVary(headers: Headers, name: string): void {
  const current = headers.get("vary");
  if (current === null) headers.set("vary", name);
  else if (!current.split(",").some((part) => part.trim().toLowerCase() === name.toLowerCase())) {
    headers.set("vary", `${current}, ${name}`);
  }
}
