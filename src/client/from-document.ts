// The typed client's view of an app's routes from its OpenAPI document (`openapi()`'s): each named
// operation's method, path and declared error names, its websocket routes, the references followed.

import {
  ERRORS_EXTENSION,
  MULTI_SEGMENT,
  PARAM_ERROR_NAMES,
  toWords,
  WEBSOCKET_EXTENSION,
} from "../wire/contract.ts";
import { encodeValue } from "./encode.ts";
import type { SocketRoute } from "./socket.ts";

// How to call one named route: its method, its path from the values given, and the declared error
// names by the words the error envelope shows.
export interface Operation {
  readonly method: string;
  readonly path: (values: Record<string, unknown>) => string;
  readonly errors: ReadonlyMap<string, string>;
  /** A channel route: whether it speaks JSON, and its declared errors. */
  readonly socket?: SocketRoute;
}

export const PARAM_ERRORS: readonly string[] = Object.values(PARAM_ERROR_NAMES);

export async function loadDocument(
  spec: string | URL | { readonly paths: object },
  send: (request: Request) => Response | Promise<Response>,
): Promise<{ readonly paths: object }> {
  if (typeof spec === "object" && !(spec instanceof URL)) return spec;
  const response = await send(new Request(spec, { headers: { accept: "application/json" } }));
  if (!response.ok) throw new Error(`The OpenAPI document at ${spec} answered ${response.status}`);
  return (await response.json()) as { readonly paths: object };
}

type DocumentOperation = {
  operationId?: string;
  parameters?: { name?: string; in?: string; [MULTI_SEGMENT]?: boolean }[];
  responses?: Record<
    string,
    {
      $ref?: string;
      content?: Record<string, { schema?: DocumentSchema }>;
      [ERRORS_EXTENSION]?: unknown;
    }
  >;
};
// A websocket route's description: JSON when it declares messages; its declared errors are the names
// its close codes list (parameter errors close with their message, not their name).
function socketOf(operation: DocumentOperation): SocketRoute {
  const { messages, closeCodes } = operation as {
    messages?: { in?: unknown; out?: unknown };
    closeCodes?: Record<string, string>;
  };
  const names = Object.entries(closeCodes ?? {})
    .filter(([code]) => Number(code) >= 3000)
    .flatMap(([, names]) => names.split(", "))
    .filter((name) => !PARAM_ERRORS.includes(name));
  return { sendsJson: messages?.in !== undefined, receivesJson: messages?.out !== undefined, errors: names };
}

type DocumentSchema = {
  $ref?: string;
  anyOf?: DocumentSchema[];
  oneOf?: DocumentSchema[];
  title?: string;
  properties?: { error?: DocumentSchema; name?: { const?: unknown } };
};

// The named operations under the base path of an OpenAPI document made by `openapi()`: an optional
// path group gives several templates for one route (`name`, `name__2`, …); the one whose parameters
// are all given is used.
export function fromDocument(document: { readonly paths: object }, basePath: string): Map<string, Operation> {
  const variants = new Map<
    string,
    {
      method: string;
      template: string;
      errors: Map<string, string>;
      multi: Set<string>;
      socket?: SocketRoute;
    }[]
  >();
  for (const [template, item] of Object.entries(
    document.paths as Record<string, Record<string, DocumentOperation>>,
  )) {
    if (!template.startsWith(`${basePath}/`) && template !== basePath) continue;
    // Custom methods (`PROPFIND`) are kept under `x-additionalOperations`.
    const additional = (item["x-additionalOperations"] ?? {}) as Record<string, DocumentOperation>;
    for (const [method, operation] of [...Object.entries(item), ...Object.entries(additional)]) {
      if (typeof operation?.operationId !== "string") continue;
      const name = operation.operationId.replace(/__\d+$/, "");
      const errors = new Map<string, string>();
      for (const reference of Object.values(operation.responses ?? {})) {
        const response = resolve(document, reference);
        // An app's own error body lists the errors' names beside it.
        const listed = response?.[ERRORS_EXTENSION];
        if (Array.isArray(listed))
          for (const errorName of listed)
            if (typeof errorName === "string") errors.set(toWords(errorName), errorName);
        const schema = resolve(document, response?.content?.["application/json"]?.schema);
        for (const one of schema?.anyOf ?? schema?.oneOf ?? (schema ? [schema] : [])) {
          const option = resolve(document, one);
          const words = option?.properties?.error?.properties?.name?.const;
          if (typeof words === "string" && typeof option?.title === "string") errors.set(words, option.title);
        }
      }
      const list = variants.get(name) ?? [];
      const multi = new Set(
        (operation.parameters ?? [])
          .filter((parameter) => parameter.in === "path" && parameter[MULTI_SEGMENT] === true)
          .map((parameter) => String(parameter.name)),
      );
      list.push({
        method: method === WEBSOCKET_EXTENSION ? "WS" : method.toUpperCase(),
        template: template.slice(basePath.length) || "/",
        errors,
        multi,
        ...(method === WEBSOCKET_EXTENSION ? { socket: socketOf(operation) } : {}),
      });
      variants.set(name, list);
    }
  }
  const operations = new Map<string, Operation>();
  for (const [name, list] of variants) {
    operations.set(name, {
      method: list[0]!.method,
      errors: list[0]!.errors,
      ...(list[0]!.socket === undefined ? {} : { socket: list[0]!.socket }),
      path: (values) => {
        const names = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
        const usable = list.filter(({ template }) =>
          names(template).every((key) => values[key] !== undefined),
        );
        const chosen = usable.sort((a, b) => names(b.template).length - names(a.template).length)[0];
        if (chosen === undefined) throw new TypeError(`Missing path values for ${name}`);
        return chosen.template.replace(/\{([^}]+)\}/g, (_, key: string) =>
          encodeValue(values[key], chosen.multi.has(key)),
        );
      },
    });
  }
  return operations;
}

// A schema or response, or the component its `$ref` names (`#/components/<kind>/<name>`, as `openapi()`
// writes them).
function resolve<T extends { $ref?: string }>(document: object, node: T | undefined): T | undefined {
  const ref = node?.$ref;
  const match = ref === undefined ? null : /^#\/components\/(\w+)\/([^/]+)$/.exec(ref);
  if (match === null) return node;
  const kind = (document as { components?: Record<string, Record<string, T>> }).components?.[match[1]!];
  const name = decodeURIComponent(match[2]!);
  return kind !== undefined && Object.hasOwn(kind, name) ? kind[name] : undefined;
}
