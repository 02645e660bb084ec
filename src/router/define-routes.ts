import {
  type Connectable,
  type Handler,
  isConnectable,
  type Middleware,
  type WsHandler,
} from "../context/handler.ts";
import type { RouteDoc } from "../context/route-doc.ts";
import { createRouter, type Router } from "./create-router.ts";
import { type Method, routeMethod } from "./methods.ts";

/**
 * One named route: `[method, path, handler]`, or `["WS", path, Channel]`; a fourth element gives it
 * middleware of its own (`[method, path, handler, { use: [requireUser] }]`), inside the routes object's.
 */
export type RouteEntry =
  // biome-ignore lint/suspicious/noExplicitAny: any handler, whatever its environment type.
  | readonly [method: Method | "WS", path: string, handler: Handler<any> | Connectable]
  | readonly [
      method: Method | "WS",
      path: string,
      // biome-ignore lint/suspicious/noExplicitAny: any handler, whatever its environment type.
      handler: Handler<any> | Connectable,
      options: { readonly use?: readonly Middleware<never>[] },
    ];

/** Options of {@link defineRoutes}. */
export interface RoutesOptions<TUse extends readonly Middleware<never>[]> {
  /** Middleware around every route (its declared errors join each route's in the client and OpenAPI). */
  readonly use?: TUse;
  /** What the OpenAPI document says of every route (tags, deprecated, hidden…). */
  readonly doc?: RouteDoc;
}

/** A routes object: mounts like a router, and its type carries every route for `createClient`. */
export type Routes<
  TEntries extends Record<string, RouteEntry> = Record<string, RouteEntry>,
  TUse extends readonly Middleware<never>[] = readonly Middleware<never>[],
> = Router<never> & {
  /** The routes by name, as declared. */
  readonly entries: TEntries;
  /** The middleware around every route, as declared. */
  readonly middleware: TUse;
};

/**
 * Declares named routes as a value: mount it like a router (`app.mount("/api", api)`), and give its
 * type to `createClient<typeof api>()`. Each name becomes the route's OpenAPI `operationId`.
 *
 * @example
 * export const api = defineRoutes({
 *   getUser: ["GET", "/users/:id", GetUser],
 *   createUser: ["POST", "/users", CreateUser],
 * });
 */
export function defineRoutes<
  const TEntries extends Record<string, RouteEntry>,
  const TUse extends readonly Middleware<never>[] = readonly [],
>(entries: TEntries, options: RoutesOptions<TUse> = {}): Routes<TEntries, TUse> {
  const router = createRouter<never>();
  const middleware = (options.use ?? []) as TUse;
  for (const use of middleware) router.use(use);
  if (options.doc !== undefined) router.doc(options.doc);
  for (const [name, entry] of Object.entries(entries)) {
    if (!Array.isArray(entry) || entry.length < 3 || entry.length > 4) {
      throw new TypeError(
        `defineRoutes: route "${name}" must be [method, path, handler] or [method, path, handler, { use }]`,
      );
    }
    const [method, path, handler, own] = entry as readonly [
      Method,
      string,
      unknown,
      { use?: readonly Middleware<never>[] }?,
    ];
    const use = own?.use ?? [];
    // `["WS", path, Channel]` routes a channel, named like the others (the typed client connects to it).
    if (isConnectable(handler)) {
      if (method !== "WS")
        throw new TypeError(`defineRoutes: route "${name}" is a channel: route it as "WS"`);
      router.ws(path, handler as WsHandler<never>, { name, use });
    } else {
      try {
        routeMethod(method);
      } catch (error) {
        throw new TypeError(`defineRoutes: route "${name}": ${(error as Error).message}`);
      }
      router.route(method, path, handler as Handler<never>, { name, use });
    }
  }
  return Object.assign(router, { entries: Object.freeze({ ...entries }), middleware });
}
