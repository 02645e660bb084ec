import type { Endpoint } from "../endpoint/define-endpoint.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import type { RouteEntry, Routes } from "../router/define-routes.ts";
import { type ErrorEnvelope, MULTI_SEGMENT, PARAM_ERROR_NAMES, toWords } from "../wire/contract.ts";
import { parsePattern } from "../wire/path-pattern.ts";
import { callHeaders, cookieHeader, encodeForm, encodeValue, jsonBigint } from "./encode.ts";
import type { Client } from "./types.ts";

// What came back, read field by field: it may not be Portico's envelope at all.
type SentEnvelope = { readonly error?: Partial<Record<keyof ErrorEnvelope["error"], unknown>> };

/** What a routes object made by `defineRoutes` looks like to the client. */
export interface RoutesShape {
  /** The routes by name. */
  readonly entries: Readonly<Record<string, RouteEntry>>;
  /** The middleware around every route. */
  readonly middleware: readonly unknown[];
}

/** Options of {@link createClient}. */
export interface ClientOptions<TRoutes, TAround extends readonly unknown[] = readonly []> {
  /** Where the routes are mounted (`http://localhost:3000/api`). */
  readonly baseUrl: string | URL;
  /**
   * The routes object, when the client may import it (shared code, tests): each route's method, path
   * and error names are read from it. Without it they come from the app's OpenAPI document (`spec`).
   */
  readonly routes?: TRoutes;
  /**
   * The app's OpenAPI document (made by `openapi()`), or where to fetch it; read once, on the first
   * call. Default: `/openapi.json` at the base URL's origin. Unused when `routes` is given.
   */
  readonly spec?: string | URL | { readonly paths: object };
  /** The fetch to use (default the global one); `app.fetch` calls an app in-process. */
  readonly fetch?: (request: Request) => Response | Promise<Response>;
  /** Headers sent with every call (not with the document's fetch). */
  readonly headers?: HeadersInit;
  /**
   * The middleware the app wraps the routes in beyond the routes object's own (`app.use(csrf())`, a
   * namespace's `use`): with `routes`, their declared errors are known by name, as the document names
   * them. Give their type as the client's second type argument (`createClient<typeof api, typeof
   * around>`) so that the error union lists them.
   */
  readonly use?: TAround;
}

// How to call one named route: its method, its path from the values given, and the declared error
// names by the words the error envelope shows.
interface Operation {
  readonly method: string;
  readonly path: (values: Record<string, unknown>) => string;
  readonly errors: ReadonlyMap<string, string>;
}

const PARAM_ERRORS = Object.values(PARAM_ERROR_NAMES);

/**
 * A typed client for a routes object: one method per named route, inputs typed from the endpoint's
 * params (what a caller sends), results `{ ok: true, status, data }` (data typed from the declared
 * view's schema) or `{ ok: false, status, error }` (a union discriminated by the declared error's name,
 * with its typed payload, plus parameter errors and `HttpError` for anything undeclared). It never
 * throws for an HTTP error answer; it throws for network failures (and when the route is unknown).
 *
 * @example
 * const client = createClient<typeof api>({ baseUrl: "http://localhost:3000/api" });
 * const res = await client.getUser({ path: { id: 1 } });
 * if (res.ok) console.log(res.data.name);
 * else if (res.error.name === "UserNotFound") console.log("no such user");
 */
export function createClient<
  TRoutes extends RoutesShape,
  const TAround extends readonly unknown[] = readonly [],
>(options: ClientOptions<TRoutes, TAround>): Client<TRoutes, TAround> {
  const base = new URL(String(options.baseUrl).replace(/\/*$/, "/"));
  const send = options.fetch ?? ((request: Request) => fetch(request));
  let operations: Promise<ReadonlyMap<string, Operation>> | undefined = options.routes
    ? Promise.resolve(fromRoutes(options.routes as unknown as Routes, options.use ?? []))
    : undefined;
  const operation = async (name: string): Promise<Operation> => {
    operations ??= loadDocument(options.spec ?? new URL("/openapi.json", base), send).then((document) =>
      fromDocument(document, base.pathname.replace(/\/$/, "")),
    );
    operations.catch(() => {
      operations = undefined;
    });
    const found = (await operations).get(name);
    if (found === undefined) throw new TypeError(`The API has no route named "${name}"`);
    return found;
  };
  const call = async (name: string, input: Record<string, unknown> = {}): Promise<unknown> => {
    const { method, path, errors } = await operation(name);
    const url = under(base, path((input.path ?? {}) as Record<string, unknown>));
    if (input.query !== undefined) url.search = encodeForm(input.query, false).toString();
    const headers = new Headers(options.headers);
    for (const [header, value] of callHeaders(input.headers)) headers.set(header, value);
    if (input.cookies !== undefined)
      headers.set("cookie", cookieHeader(input.cookies, headers.get("cookie")));
    if (!headers.has("accept")) headers.set("accept", "application/json");
    let body: string | FormData | null = null;
    if (input.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(input.json, (_, value) =>
        typeof value === "bigint" ? jsonBigint(value) : value,
      );
    } else if (input.form !== undefined) {
      // Files go as multipart/form-data (fetch sets the type and boundary); text alone as urlencoded.
      const form = encodeForm(input.form);
      if (form instanceof FormData) body = form;
      else {
        headers.set("content-type", "application/x-www-form-urlencoded");
        body = form.toString();
      }
    }
    const response = await send(new Request(url, { method, headers, body }));
    const type = response.headers.get("content-type") ?? "";
    const data: unknown = /[/+]json\b/i.test(type) ? await response.json() : await response.text();
    if (response.ok) return { ok: true, status: response.status, data };
    const envelope = (data as SentEnvelope | undefined)?.error;
    const known = typeof envelope?.name === "string" ? errors.get(envelope.name) : undefined;
    const error = {
      name: known ?? "HttpError",
      code: typeof envelope?.code === "number" ? envelope.code : response.status,
      message: typeof envelope?.message === "string" ? envelope.message : null,
      payload: envelope === undefined ? data : (envelope.payload ?? null),
    };
    return { ok: false, status: response.status, error };
  };
  // A proxy, so that the methods exist before the document is read; a flat object to TypeScript.
  return new Proxy(Object.freeze({}), {
    get: (_, name) =>
      typeof name === "string" ? (input?: Record<string, unknown>) => call(name, input) : undefined,
  }) as Client<TRoutes, TAround>;
}

function fromRoutes(routes: Routes, around: readonly unknown[]): Map<string, Operation> {
  const shared = [...routes.middleware, ...around].flatMap((middleware) =>
    Object.keys((middleware as { errors?: object }).errors ?? {}),
  );
  const operations = new Map<string, Operation>();
  for (const [name, [method, pattern, handler]] of Object.entries(routes.entries)) {
    // An endpoint carries its declared errors (a block handler is a function and declares none).
    const endpoint =
      typeof handler === "object" ? (handler as unknown as Endpoint<ParamsDeclaration>) : undefined;
    const errors = new Map<string, string>();
    const body = endpoint?.params?.form !== undefined || endpoint?.params?.json !== undefined;
    const own = [...(body ? ["PayloadTooLarge"] : []), ...Object.keys(endpoint?.errors ?? {})];
    for (const errorName of [...PARAM_ERRORS, ...shared, ...own]) {
      errors.set(toWords(errorName), errorName);
    }
    operations.set(name, {
      method: method.toUpperCase(),
      path: (values) => fillPath(pattern, values),
      errors,
    });
  }
  return operations;
}

async function loadDocument(
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
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: DocumentSchema }> }>;
};
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
function fromDocument(document: { readonly paths: object }, basePath: string): Map<string, Operation> {
  const variants = new Map<
    string,
    { method: string; template: string; errors: Map<string, string>; multi: Set<string> }[]
  >();
  for (const [template, item] of Object.entries(
    document.paths as Record<string, Record<string, DocumentOperation>>,
  )) {
    if (!template.startsWith(`${basePath}/`) && template !== basePath) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation?.operationId !== "string") continue;
      const name = operation.operationId.replace(/__\d+$/, "");
      const errors = new Map<string, string>();
      for (const reference of Object.values(operation.responses ?? {})) {
        const response = resolve(document, reference);
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
        method: method.toUpperCase(),
        template: template.slice(basePath.length) || "/",
        errors,
        multi,
      });
      variants.set(name, list);
    }
  }
  const operations = new Map<string, Operation>();
  for (const [name, list] of variants) {
    operations.set(name, {
      method: list[0]!.method,
      errors: list[0]!.errors,
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

// The route's pattern with the path values in place (percent-encoded); an optional group without a
// value is left out.
function fillPath(pattern: string, values: Record<string, unknown> = {}): string {
  let path = "";
  for (const part of parsePattern(pattern, (text) => text)) {
    if (part.type === "fixed") {
      path += part.value;
      continue;
    }
    const value = values[part.name];
    if (value === undefined) {
      if (part.modifier === "?" || part.modifier === "*") continue;
      throw new TypeError(`Missing path value "${part.name}" for ${pattern}`);
    }
    const multi = part.type === "full" || part.modifier === "*" || part.modifier === "+";
    path += part.prefix + encodeValue(value, multi) + part.suffix;
  }
  return path;
}

// The route's path under the base URL, checked to be there before anything is sent.
function under(base: URL, path: string): URL {
  const url = new URL(path.replace(/^\//, ""), base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw new TypeError(`The path ${JSON.stringify(path.slice(0, 200))} leads outside ${base.href}`);
  }
  return url;
}
