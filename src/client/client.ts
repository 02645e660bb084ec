import type { Endpoint } from "../endpoint/define-endpoint.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import type { RouteEntry, Routes } from "../router/define-routes.ts";
import { ERROR_NAME_HEADER, type ErrorEnvelope, toWords } from "../wire/contract.ts";
import { parsePattern } from "../wire/path-pattern.ts";
import { callHeaders, cookieHeader, encodeForm, encodeValue, jsonBigint } from "./encode.ts";
import { fromDocument, loadDocument, type Operation, PARAM_ERRORS } from "./from-document.ts";
import { connect, type WebSocketConstructor } from "./socket.ts";
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
  /**
   * The WebSocket constructor channels connect with (default the global one; on Node 20, `ws`'s, which
   * also sends the headers given to `connect`).
   */
  readonly WebSocket?: WebSocketConstructor;
}

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
    if (/^application\/problem\+json\b/i.test(type))
      return { ok: false, status: response.status, error: fromProblem(data, response.status, errors) };
    const envelope = (data as SentEnvelope | undefined)?.error;
    // The envelope names the error; an app's own error body may not, and the header does.
    const named = response.headers.get(ERROR_NAME_HEADER);
    const known =
      typeof envelope?.name === "string"
        ? errors.get(envelope.name)
        : named === null
          ? undefined
          : errors.get(toWords(named));
    const error = {
      name: known ?? "HttpError",
      code: typeof envelope?.code === "number" ? envelope.code : response.status,
      message: typeof envelope?.message === "string" ? envelope.message : null,
      payload: envelope === undefined ? data : (envelope.payload ?? null),
    };
    return { ok: false, status: response.status, error };
  };
  // A proxy, so that the methods exist before the document is read; a flat object to TypeScript.
  const open = (name: string, input: Record<string, unknown> = {}) =>
    connect(
      operation(name).then((found) => {
        if (found.socket === undefined) throw new TypeError(`The route named "${name}" is not a channel`);
        const url = under(base, found.path((input.path ?? {}) as Record<string, unknown>));
        return { url, route: found.socket };
      }),
      input,
      options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket,
    );
  // A proxy, so that the methods exist before the document is read; a flat object to TypeScript. A
  // route's method calls it; a channel's `connect` opens it.
  return new Proxy(Object.freeze({}), {
    get: (_, name) =>
      typeof name === "string"
        ? Object.assign((input?: Record<string, unknown>) => call(name, input), {
            connect: (input?: Record<string, unknown>) => open(name, input),
          })
        : undefined,
  }) as Client<TRoutes, TAround>;
}

// RFC 9457 Problem Details: the declared name in `name`, the message in `detail`, the payload's fields
// beside the standard members.
function fromProblem(data: unknown, status: number, errors: ReadonlyMap<string, string>) {
  const {
    type: _type,
    title: _title,
    status: _status,
    detail,
    instance: _instance,
    name,
    ...rest
  } = (data ?? {}) as Record<string, unknown>;
  const known = typeof name === "string" ? errors.get(toWords(name)) : undefined;
  return {
    name: known ?? "HttpError",
    code: status,
    message: typeof detail === "string" ? detail : null,
    payload: known === undefined ? data : Object.keys(rest).length > 0 ? rest : null,
  };
}

function fromRoutes(routes: Routes, around: readonly unknown[]): Map<string, Operation> {
  const shared = [...routes.middleware, ...around].flatMap((middleware) =>
    Object.keys((middleware as { errors?: object }).errors ?? {}),
  );
  const operations = new Map<string, Operation>();
  for (const [name, [method, pattern, handler, own]] of Object.entries(routes.entries)) {
    // An endpoint carries its declared errors (a block handler is a function and declares none).
    const endpoint =
      typeof handler === "object" ? (handler as unknown as Endpoint<ParamsDeclaration>) : undefined;
    const errors = new Map<string, string>();
    const body = endpoint?.params?.form !== undefined || endpoint?.params?.json !== undefined;
    const declared = [...(body ? ["PayloadTooLarge"] : []), ...Object.keys(endpoint?.errors ?? {})];
    const around = (own?.use ?? []).flatMap((middleware) =>
      Object.keys((middleware as { errors?: object }).errors ?? {}),
    );
    for (const errorName of [...PARAM_ERRORS, ...shared, ...around, ...declared]) {
      errors.set(toWords(errorName), errorName);
    }
    // A channel (`["WS", path, Channel]`) carries its messages, and its errors as an endpoint does.
    const channel =
      method.toUpperCase() === "WS" ? (handler as { messages?: { in?: unknown; out?: unknown } }) : undefined;
    operations.set(name, {
      method: method.toUpperCase(),
      path: (values) => fillPath(pattern, values),
      errors,
      ...(channel === undefined
        ? {}
        : {
            socket: {
              sendsJson: channel.messages?.in !== undefined,
              receivesJson: channel.messages?.out !== undefined,
              errors: Object.keys(endpoint?.errors ?? {}),
            },
          }),
    });
  }
  return operations;
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
