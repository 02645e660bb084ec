// A copy of an OpenAPI document with every local `$ref` (`#/components/…`) replaced by what it names,
// for tests that read schemas where they apply (the document itself keeps its references).
export function deref<T>(document: T): T {
  const root = document as Record<string, unknown>;
  const follow = (ref: string): unknown =>
    ref
      .slice(2)
      .split("/")
      .map((part) => decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, seen));
    if (node === null || typeof node !== "object") return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/")) {
      if (seen.includes(ref)) throw new Error(`A circular $ref: ${ref}`);
      return walk(follow(ref), [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, seen)]));
  };
  return walk(document, []) as T;
}
