import type { Middleware } from "../context/handler.ts";

/** Middleware that may refuse requests with declared errors (listed in the OpenAPI document). */
export type DeclaringMiddleware<TErrors> = Middleware<unknown> & { readonly errors: TErrors };

/** Attaches the errors a middleware refuses requests with. */
export function declaring<TErrors extends object>(
  middleware: Middleware<unknown>,
  errors: TErrors,
): DeclaringMiddleware<Readonly<TErrors>> {
  return Object.assign(middleware, { errors: Object.freeze(errors) });
}
