import type { Middleware } from "../context/handler.ts";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import { type DeclaringMiddleware, declaring } from "./declaring.ts";

/** The error a body over the limit gets (413; the connection then closes). */
export const PayloadTooLarge: ErrorClass<undefined> = defineError("PayloadTooLarge", 413, {
  message: "Request body exceeds the limit",
});

/**
 * Sets the body limit for the routes it wraps (a namespace, a router, or the app), above or below the
 * app's `limits.bodySize`: params parsing and `readBody` count bytes as they arrive (chunked bodies
 * included) and answer 413 past it; a `Content-Length` over it is refused before anything is read.
 * The raw `ctx.request.raw` stays unbounded: read bodies with `readBody`.
 *
 * @example
 * app.on("/uploads", (r) => { r.use(bodyLimit(50 * 1024 * 1024)); r.post("/", Upload); });
 */
export function bodyLimit(
  bytes: number,
): DeclaringMiddleware<{ readonly PayloadTooLarge: ErrorClass<undefined> }> {
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new RangeError("bodyLimit(): give a positive number of bytes");
  const middleware: Middleware<unknown> = (ctx, next) => {
    ctx.limits = { ...ctx.limits, bodySize: bytes };
    const length = ctx.request.headers.get("content-length");
    if (length !== null && Number(length) > bytes) {
      const error = new PayloadTooLarge();
      error.message = `Request body exceeds the limit of ${bytes} bytes`;
      ctx.response.headers.set("connection", "close");
      throw error;
    }
    return next();
  };
  return declaring(middleware, { errors: { PayloadTooLarge } });
}
