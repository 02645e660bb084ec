// Route patterns as OpenAPI path templates (`/users/:id` → `/users/{id}`), for `openapi.ts`.
import { MULTI_SEGMENT } from "../wire/contract.ts";
import { parsePattern } from "../wire/path-pattern.ts";
import type { Schema } from "./json-schema.ts";

// A route pattern in OpenAPI form: `:id` → `{id}`; an optional group gives one path with it and one
// without; `*`/`+` groups and `(.*)` become one parameter that may hold slashes (said in its description).
export function templates(path: string): { template: string; names: Map<string, Schema> }[] {
  let variants: { template: string; names: Map<string, Schema> }[] = [{ template: "", names: new Map() }];
  for (const part of parsePattern(path, (text) => text)) {
    if (part.type === "fixed") {
      const add = (text: string) => (variant: { template: string; names: Map<string, Schema> }) => ({
        template: variant.template + text,
        names: variant.names,
      });
      variants =
        part.modifier === "?"
          ? [...variants.map(add(part.value)), ...variants.map(add(""))]
          : variants.map(add(part.value));
      continue;
    }
    const schema: Schema = { type: "string" };
    if (part.type === "regexp") schema.pattern = `^(?:${part.value})$`;
    if (part.type === "full" || part.modifier === "*" || part.modifier === "+") {
      schema.description = "One or more path segments, slashes included";
      schema[MULTI_SEGMENT] = true;
    }
    const withIt = variants.map((variant) => ({
      template: `${variant.template}${part.prefix}{${part.name}}${part.suffix}`,
      names: new Map([...variant.names, [part.name, schema]]),
    }));
    variants = part.modifier === "?" || part.modifier === "*" ? [...withIt, ...variants] : withIt;
  }
  return variants.map((variant) => ({ template: variant.template || "/", names: variant.names }));
}

// A variant's path parameters under the names of the template its shape is documented at (the same
// positions), so each operation's parameters match the path it is listed under.
export function renamed(
  variant: { template: string; names: Map<string, Schema> },
  template: string,
): Map<string, Schema> {
  if (variant.template === template) return variant.names;
  const theirs = [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!);
  const ours = [...variant.names];
  return new Map(theirs.map((name, i) => [name, { ...ours[i]![1], [DECLARED_AS]: ours[i]![0] }]));
}

// The name a renamed path parameter has in its route (and its endpoint's declaration).
export const DECLARED_AS = "x-portico-declared-as";
