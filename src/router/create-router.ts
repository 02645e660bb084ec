import type { RegisteredEnv } from "../context/context.ts";
import {
  type Handler,
  isConnectable,
  isRunnable,
  type Middleware,
  type WsHandler,
} from "../context/handler.ts";
import { mergeDocs, type RouteDoc } from "../context/route-doc.ts";
import { errorRenderingOf } from "../errors/rendering.ts";
import { joinPath } from "./join-path.ts";
import type { NamespaceOptions, RouteOptions } from "./route-options.ts";

export type { NamespaceOptions, RouteOptions } from "./route-options.ts";

import { type Method, routeMethod } from "./methods.ts";
import { ANY_METHOD, WS_METHOD } from "./route-table.ts";
import {
  callbackAdded,
  type NamespaceCallback,
  NOT_FOUND_METHOD,
  newScope,
  routeScope,
  type Scope,
  type ScopeErrorHandler,
  type ScopeNotFoundHandler,
} from "./scope.ts";

/** A registered route: what runs, and the scopes (outermost first) whose middleware wraps it. */
export interface RouteRecord {
  readonly method: string;
  readonly path: string;
  readonly handler: Handler<never> | WsHandler<never>;
  readonly scopes: readonly Scope[];
  /** The route's name (`defineRoutes` keys, or `route(…, { name })`): the OpenAPI `operationId`. */
  readonly name?: string | undefined;
  /** The route's own documentation (`route(…, { doc })`). */
  readonly doc?: RouteDoc | undefined;
}

/** Where a router puts the routes registered on it. */
export type RouteSink = (record: RouteRecord) => void;

export type { Method } from "./methods.ts";

/**
 * Registers routes: verbs, namespaces (`on`), mounted routers, websockets and middleware.
 * Apps are routers; `createRouter` makes a standalone one to `mount`.
 */
export class Router<TEnv = RegisteredEnv> {
  readonly #prefix: string;
  readonly #scopes: readonly Scope[];
  readonly #own: Scope;
  readonly #sink: RouteSink;
  readonly #records: RouteRecord[] | undefined;

  /** @internal Use `createApp` or `createRouter`. */
  constructor(prefix: string, scopes: readonly Scope[], own: Scope, sink: RouteSink | undefined) {
    this.#prefix = prefix;
    this.#scopes = scopes;
    this.#own = own;
    if (sink) {
      this.#sink = sink;
      this.#records = undefined;
    } else {
      const records: RouteRecord[] = [];
      this.#records = records;
      this.#sink = (record) => records.push(record);
    }
  }

  /** Routes GET (and HEAD, unless a HEAD route exists). */
  get(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("GET", path, handler, options);
  }
  /** Routes POST. */
  post(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("POST", path, handler, options);
  }
  /** Routes PUT. */
  put(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("PUT", path, handler, options);
  }
  /** Routes PATCH. */
  patch(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("PATCH", path, handler, options);
  }
  /** Routes DELETE. */
  delete(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("DELETE", path, handler, options);
  }
  /** Routes HEAD (otherwise HEAD is answered from GET without a body). */
  head(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("HEAD", path, handler, options);
  }
  /** Routes OPTIONS (otherwise OPTIONS is answered 204 with `Allow`). */
  options(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route("OPTIONS", path, handler, options);
  }
  /** Routes every method not routed otherwise on this path. */
  all(path: string, handler: Handler<TEnv>, options?: RouteOptions): this {
    return this.route(ANY_METHOD as Method, path, handler, options);
  }

  /**
   * Routes one handler for one or several methods.
   *
   * @example
   * app.route(["GET", "POST"], "/multi", (ctx) => ctx.response.write(ctx.request.method));
   */
  route(
    methods: Method | readonly Method[],
    path: string,
    handler: Handler<TEnv>,
    options: RouteOptions = {},
  ): this {
    if (typeof handler !== "function" && !isRunnable(handler)) {
      throw new TypeError(`Handler for ${path} must be a function or an endpoint`);
    }
    for (const method of typeof methods === "string" ? [methods] : methods)
      this.#add(method === ANY_METHOD ? method : routeMethod(method), path, handler, options);
    return this;
  }

  /**
   * Routes a websocket: a block `(socket, ctx) => …` or a channel.
   *
   * @example
   * app.ws("/echo", (socket) => socket.onMessage((m) => socket.send(m)));
   */
  ws(path: string, handler: WsHandler<TEnv>, options?: RouteOptions): this {
    if (typeof handler !== "function" && !isConnectable(handler)) {
      throw new TypeError(`Websocket handler for ${path} must be a function or a channel`);
    }
    this.#add(WS_METHOD, path, handler, options);
    return this;
  }

  /**
   * Opens a namespace: routes registered on `r` are under `prefix`, and `r.use()` wraps only them.
   *
   * @example
   * app.on("/users", (r) => {
   *   r.get("/:id", GetUser);
   *   r.on("/posts", (r) => r.get("/:id", GetPost)); // GET /users/posts/:id
   * });
   */
  on(prefix: string, build: (router: Router<TEnv>) => unknown, options: NamespaceOptions = {}): this {
    const scope = newScope();
    scope.doc = options.doc;
    // Checked now, where the mistake is; overlaid on the app's when a route's error renders.
    if (options.errors !== undefined) errorRenderingOf(options.errors);
    scope.errors = options.errors;
    const child = new Router<TEnv>(
      joinPath(this.#prefix, prefix),
      [...this.#scopes, scope],
      scope,
      this.#sink,
    );
    build(child);
    return this;
  }

  /**
   * Handles errors thrown by this namespace's (or router's) routes and middleware: the nearest
   * namespace's handler wins, then the next one out, then the app's. Return a `Response` or a view;
   * return nothing to leave the error to the next handler out (or the default rendering).
   *
   * @example
   * app.on("/api", (r) => r.onError((error) => Response.json({ problem: String(error) }, { status: 500 })));
   */
  onError(handler: ScopeErrorHandler<TEnv>): this {
    this.#own.onError = handler as ScopeErrorHandler<never>;
    return this;
  }

  /**
   * Answers paths under this namespace's prefix that no route matches (for any method; a path routed
   * for other methods still gets its 405). The nearest namespace's wins, then the app's.
   *
   * @example
   * app.on("/api", (r) => r.notFound(() => Response.json({ error: "no such endpoint" }, { status: 404 })));
   */
  notFound(handler: ScopeNotFoundHandler<TEnv>): this {
    this.#sink({
      method: NOT_FOUND_METHOD,
      path: this.#prefix === "" ? "/" : this.#prefix,
      handler: handler as Handler<never>,
      scopes: this.#scopes,
    });
    return this;
  }

  /**
   * A callback run for every endpoint of this namespace after its params are parsed, before the
   * endpoint's own `before` callbacks (outer namespaces' first). Gets the endpoint instance `ep`; a raise
   * skips the rest, as in an endpoint. Block routes are not endpoints and do not run it.
   *
   * @example
   * app.on("/admin", (r) => r.before((ep) => { if (!ep.context.state.user) throw new Forbidden(); }));
   */
  before(callback: NamespaceCallback): this {
    if (typeof callback !== "function") throw new TypeError("before() takes a function (ep) => …");
    this.#own.before.push(callback);
    callbackAdded();
    return this;
  }

  /**
   * A callback run for every endpoint of this namespace after `call`, before the endpoint's own `after`
   * callbacks (outer namespaces' first); skipped when something raised.
   *
   * @example
   * app.on("/api", (r) => r.after((ep) => ep.header("cache-control", "no-store")));
   */
  after(callback: NamespaceCallback): this {
    if (typeof callback !== "function") throw new TypeError("after() takes a function (ep) => …");
    this.#own.after.push(callback);
    callbackAdded();
    return this;
  }

  /**
   * Adds Koa-style middleware around the routes of this router (on an app: around every request); several
   * at once run in the order given, the first outermost: `app.use(logger(), csrf())`.
   */
  use(...middleware: Middleware<TEnv>[]): this {
    for (const each of middleware) {
      if (typeof each !== "function") throw new TypeError("Middleware must be a function (ctx, next) => …");
    }
    for (const each of middleware) this.#own.middleware.push(each as Middleware<never>);
    return this;
  }

  /**
   * Mounts the routes of a router made by `createRouter` under a prefix (its routes as they are now).
   *
   * @example
   * app.mount("/admin", createRouter((r) => r.get("/", AdminHome)));
   */
  mount(prefix: string, router: Router<TEnv>): this {
    const records = router.#records;
    if (!records) throw new TypeError("mount() takes a router made by createRouter()");
    for (const record of records) {
      this.#sink({
        ...record,
        path: joinPath(prefix === "/" ? this.#prefix : joinPath(this.#prefix, prefix), record.path),
        scopes: [...this.#scopes, ...record.scopes],
      });
    }
    return this;
  }

  /** Documents every route of this router or namespace: `r.doc({ tags: ["admin"] })` (merged with each route's). */
  doc(doc: RouteDoc): this {
    this.#own.doc = mergeDocs([this.#own.doc, doc]);
    return this;
  }

  #add(
    method: string,
    path: string,
    handler: Handler<TEnv> | WsHandler<TEnv>,
    options: RouteOptions = {},
  ): void {
    this.#sink({
      method,
      path: joinPath(this.#prefix, path),
      handler: handler as Handler<never>,
      scopes: options.use?.length ? [...this.#scopes, routeScope(options.use)] : this.#scopes,
      name: options.name,
      doc: options.doc,
    });
  }
}

/**
 * Builds a standalone router, to mount on an app (or on another router) under a prefix.
 *
 * @example
 * const admin = createRouter((r) => {
 *   r.use(requireAdmin);
 *   r.get("/", AdminHome);
 * });
 * app.mount("/admin", admin);
 */
export function createRouter<TEnv = RegisteredEnv>(build?: (router: Router<TEnv>) => unknown): Router<TEnv> {
  const scope = newScope();
  const router = new Router<TEnv>("", [scope], scope, undefined);
  build?.(router);
  return router;
}
