import type { Middleware } from "../context/handler.ts";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import { type DeclaringMiddleware, declaring } from "./declaring.ts";

/** The error a request gets when its handler misses the deadline (503; retrying later may work). */
export const HandlerTimeout: ErrorClass<undefined> = defineError("HandlerTimeout", 503, {
  message: "The request took too long to handle",
});

/**
 * A deadline for the routes it wraps: when the rest of the chain has not finished after `ms`
 * milliseconds, `ctx.signal` aborts (pass it to `fetch` and database calls so their work stops) and the
 * request is answered with the declared `HandlerTimeout` (503). What the handler does after that is not
 * sent. A response already handed over (a stream, SSE) is not cut: the deadline covers producing it.
 *
 * @example
 * app.on("/reports", (r) => { r.use(timeout(5_000)); r.get("/:id", Report); });
 */
export function timeout(ms: number): DeclaringMiddleware<{ readonly HandlerTimeout: ErrorClass<undefined> }> {
  if (!Number.isSafeInteger(ms) || ms < 1)
    throw new RangeError("timeout(): give a positive number of milliseconds");
  const middleware: Middleware<unknown> = (ctx, next) => {
    const deadline = new AbortController();
    ctx.abortOn(deadline.signal);
    // The headers as they were before the handler: what it set (a Set-Cookie, say) is not the 503's.
    const before = ctx.response.hasHeaders ? new Headers(ctx.response.headers) : undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new HandlerTimeout();
        error.message = `The request took longer than ${ms} ms to handle`;
        deadline.abort(error);
        restore(ctx.response.headers, before);
        reject(error);
      }, ms);
    });
    return Promise.race([next(), expired]).finally(() => clearTimeout(timer));
  };
  return declaring(middleware, { errors: { HandlerTimeout } });
}

function restore(headers: Headers, before: Headers | undefined): void {
  for (const name of [...headers.keys()]) headers.delete(name);
  if (before === undefined) return;
  for (const [name, value] of before) {
    if (name === "set-cookie") continue;
    headers.append(name, value);
  }
  for (const cookie of before.getSetCookie()) headers.append("set-cookie", cookie);
}
