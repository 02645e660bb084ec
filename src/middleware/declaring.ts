import type { Middleware } from "../context/handler.ts";

/**
 * Middleware that may refuse requests with declared errors (listed in the OpenAPI document and the
 * client's error union). `declaresFor`, when present, says on which methods it can: the document lists
 * the errors only on those routes (`csrf()` never refuses a GET, `etag()` answers only GET and HEAD).
 */
export type DeclaringMiddleware<TErrors> = Middleware<unknown> & {
  readonly errors: TErrors;
  readonly declaresFor?: (method: string) => boolean;
};

/**
 * Attaches the errors a middleware refuses requests with, and the methods it can refuse (default: all).
 *
 * @example
 * const Locked = defineError("Locked", 423);
 * const readOnly = declaring(
 *   (ctx, next) => { if (maintenance) throw new Locked(); return next(); },
 *   { Locked },
 *   (method) => method !== "GET" && method !== "HEAD",
 * );
 */
export function declaring<TErrors extends object>(
  middleware: Middleware<unknown>,
  errors: TErrors,
  declaresFor?: (method: string) => boolean,
): DeclaringMiddleware<Readonly<TErrors>> {
  return Object.assign(middleware, {
    errors: Object.freeze(errors),
    ...(declaresFor === undefined ? {} : { declaresFor }),
  });
}
