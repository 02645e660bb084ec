import type { Middleware } from "../context/handler.ts";
import type { DeclaringMiddleware, MiddlewareDeclaration } from "../context/route-doc.ts";

export type { DeclaringMiddleware, MiddlewareDeclaration };

/**
 * Attaches to a middleware what it declares: errors, the methods they concern, credentials, headers,
 * other answers.
 *
 * @example
 * const Locked = defineError("Locked", 423);
 * const readOnly = declaring((ctx, next) => (maintenance ? Promise.reject(new Locked()) : next()), {
 *   errors: { Locked },
 *   declaresFor: (method) => method !== "GET" && method !== "HEAD",
 * });
 * const apiKey = declaring(checkApiKey, {
 *   errors: { Unauthorized },
 *   security: { schemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } } },
 * });
 */
export function declaring<const TErrors extends object = Record<never, never>>(
  middleware: Middleware<unknown>,
  declaration: MiddlewareDeclaration<TErrors>,
): DeclaringMiddleware<Readonly<TErrors>> {
  const { errors, declaresFor, security, headers, responses } = declaration;
  return Object.assign(middleware, {
    errors: Object.freeze({ ...(errors ?? {}) }) as Readonly<TErrors>,
    ...(declaresFor === undefined ? {} : { declaresFor }),
    ...(security === undefined ? {} : { security }),
    ...(headers === undefined ? {} : { headers }),
    ...(responses === undefined ? {} : { responses }),
  });
}
