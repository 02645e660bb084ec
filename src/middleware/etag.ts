import type { Context, PartsTransform } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import { fingerprint } from "../http/fingerprint.ts";
import { mediaTypeOf } from "../http/media-type.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import { type DeclaringMiddleware, declaring } from "./declaring.ts";

/** The error a failed `If-Match` gets (412). */
export const PreconditionFailed: ErrorClass<undefined> = defineError("PreconditionFailed", 412, {
  message: "The resource does not match If-Match",
});

/** Options of {@link etag}. */
export interface EtagOptions {
  /** Make weak tags (`W/"…"`): the same meaning rather than the same bytes. Default `false` (strong). */
  readonly weak?: boolean;
}

// Headers a 304 keeps (RFC 9110 §15.4.5): it describes the representation the client already has.
const DROPPED_BY_304 = ["content-type", "content-length", "content-encoding", "content-range"];
const encoder = new TextEncoder();
const ENTITY_TAG = /(W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g;

/**
 * ETags for GET and HEAD answers: a 96-bit fingerprint of the body (unless the handler set an `ETag`), then
 * `If-None-Match` → 304 (weak comparison) and `If-Match` → 412 (strong comparison, a declared error).
 * Bodies whose bytes are known are tagged — what a view renders, `ctx.response.body`, a returned
 * `Response` with a `Content-Length`; a stream without one is sent untouched rather than held until it
 * ends, and event streams are never read. Unsafe methods are left to the handler, which knows the
 * stored version.
 *
 * @example
 * app.use(etag());
 */
export function etag(
  options: EtagOptions = {},
): DeclaringMiddleware<{ readonly PreconditionFailed: ErrorClass<undefined> }> {
  const prefix = options.weak ? "W/" : "";
  const parts = (response: ResponseParts, ctx: Context<unknown>): ResponseParts | Promise<ResponseParts> => {
    const body = response.body;
    if (response.status !== 200 || body === null) return response;
    const headers = response.headers;
    const own = headers.get("etag");
    if (own !== null) return answer(response, own, ctx.request.headers);
    if (mediaTypeOf(headers.get("content-type")) === "text/event-stream") return response;
    const tagged = (bytes: Uint8Array): ResponseParts => {
      const value = `${prefix}"${fingerprint(bytes)}"`;
      headers.set("etag", value);
      return answer(response, value, ctx.request.headers);
    };
    // Known bytes (what a view renders, a written body) are tagged at once; a stream or a Blob only when
    // its length is said, read whole first.
    if (typeof body === "string") return tagged(encoder.encode(body));
    if (body instanceof Uint8Array) return tagged(body);
    if (!headers.has("content-length")) return response;
    return new Response(body).arrayBuffer().then((buffer) => {
      response.body = new Uint8Array(buffer);
      return tagged(response.body);
    });
  };
  const tag: PartsTransform = { parts };
  const middleware: Middleware<unknown> = (ctx, next) => {
    const method = ctx.request.method;
    if (method === "GET" || method === "HEAD") ctx.response.transform(tag);
    return next();
  };
  return declaring(middleware, {
    errors: { PreconditionFailed },
    declaresFor: (method) => method === "GET" || method === "HEAD",
    headers: { ETag: "The representation's entity tag" },
    responses: {
      304: {
        description: "Not modified: `If-None-Match` names the current tag",
        headers: { ETag: "The representation's entity tag" },
      },
    },
  });
}

function answer(response: ResponseParts, value: string, request: Headers): ResponseParts {
  const ifMatch = request.get("if-match");
  if (ifMatch !== null && !matches(ifMatch, value, true)) {
    cancel(response.body);
    throw new PreconditionFailed();
  }
  const ifNoneMatch = request.get("if-none-match");
  if (ifNoneMatch === null || !matches(ifNoneMatch, value, false)) return response;
  cancel(response.body);
  for (const name of DROPPED_BY_304) response.headers.delete(name);
  return { status: 304, headers: response.headers, body: null };
}

function cancel(body: ResponseParts["body"]): void {
  if (body instanceof ReadableStream) body.cancel().catch(() => {});
}

// RFC 9110 §8.8.3.2: strong comparison needs both tags strong and equal; weak ignores the W/.
function matches(header: string, value: string, strong: boolean): boolean {
  if (header.trim() === "*") return true;
  const own = value.startsWith("W/") ? value.slice(2) : value;
  if (strong && own !== value) return false;
  for (const [listed, weak] of header.matchAll(ENTITY_TAG)) {
    if (strong && weak !== undefined) continue;
    if ((weak === undefined ? listed : listed.slice(2)) === own) return true;
  }
  return false;
}
