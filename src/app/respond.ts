import type { Context } from "../context/context.ts";
import { later, type Pending } from "../context/later.ts";
import type { PartsTransformOf, ResponseBody, TransformOf } from "../context/response-state.ts";
import { checkFieldValue } from "../http/field-value.ts";
import { ResponseHeaders } from "../http/response-headers.ts";
import { partsOf, type ResponseParts, toResponse } from "../http/response-parts.ts";
import { appendVary } from "../http/vary.ts";
import type { Scope } from "../router/scope.ts";
import { renderView } from "../view/render-view.ts";
import { wasUpgraded } from "../ws/upgrade.ts";
import type { AppState } from "./app-state.ts";
import { lastResortResponse, rescue } from "./rescue.ts";

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
// RFC 9112 §4: what a reason phrase may hold.
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;
const encoder = new TextEncoder();

type Transform = TransformOf<Context> | PartsTransformOf<Context>;

/**
 * The response for a handled request, as parts (`http/response-parts.ts`): the runtime's side writes
 * them. Building it can fail (a bad status or header, a renderer that throws): the error is then
 * rescued once more, and as a last resort a plain 500 is sent.
 */
export function respond(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
): ResponseParts | Pending<ResponseParts> {
  // What Bun and the Node adapter get back once they answered a websocket handshake themselves.
  if (state.hasWebSockets && wasUpgraded(ctx))
    return { status: 101, headers: new ResponseHeaders(), body: null };
  // A handshake answer the runtime made for the app to return (Deno, workerd) passes as it is.
  const raw = ctx.response.raw;
  if (raw !== undefined && raw.status === 101) return partsOf(raw);
  try {
    const transforms = ctx.response.transforms as readonly Transform[] | undefined;
    if (transforms !== undefined) return transformed(state, ctx, scopes, transforms);
    return buildParts(ctx, state.idHeader, false);
  } catch (error) {
    return recover(state, ctx, scopes, error);
  }
}

function recover(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  error: unknown,
): ResponseParts | Pending<ResponseParts> {
  const rescued = rescue(state, ctx, error, scopes);
  return rescued instanceof Promise ? later(rescued, () => lastTry(state, ctx)) : lastTry(state, ctx);
}

// The transforms see the full body (HEAD included, so an ETag or encoding matches GET's); a body of
// known bytes is bytes, its length in `Content-Length`, so they can tell it from a stream. A transform
// of the `Response` form gets a `Response` made from the parts; one of the parts form, the parts of
// whatever came before it.
function transformed(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  transforms: readonly Transform[],
): ResponseParts | Pending<ResponseParts> {
  const fail = (error: unknown) => recover(state, ctx, scopes, error);
  // Synchronous as long as the transforms are: a promise only from the first one that returns one.
  const from = (
    index: number,
    parts: ResponseParts | undefined,
    response: Response | undefined,
  ): ResponseParts | Pending<ResponseParts> => {
    try {
      for (let i = index; i >= 0; i--) {
        const transform = transforms[i]!;
        if (typeof transform === "function") {
          const out = transform(response ?? toResponse(checkedParts(parts!)), ctx);
          if (out instanceof Promise) return later(out, (next) => from(i - 1, undefined, next), fail);
          response = out;
          parts = undefined;
        } else {
          const given = parts ?? ownParts(response!);
          const out = transform.parts(given, ctx);
          if (out instanceof Promise) return later(out, (next) => from(i - 1, next, undefined), fail);
          parts = out;
          response = undefined;
        }
      }
      return finalParts(ctx, parts ?? partsOf(response!));
    } catch (error) {
      return fail(error);
    }
  };
  return from(transforms.length - 1, buildParts(ctx, state.idHeader, true), undefined);
}

// Parts of a `Response` for a transform to change: headers of their own (a returned Response's may be
// immutable), unless it is a handshake answer, which passes as it is.
function ownParts(response: Response): ResponseParts {
  const parts = partsOf(response);
  if (parts.status !== 101) parts.headers = new Headers(response.headers);
  return parts;
}

// What the transforms made, checked as `new Response()` would check it (so that every runtime refuses
// the same, and `app.fetch` never throws), with a `Content-Length` that is the body's, and without a body
// for the statuses that have none; before a transform of the `Response` form gets it, and at the end.
function checkedParts(parts: ResponseParts): ResponseParts {
  const status = parts.status;
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`Response status must be an integer from 200 to 599, got ${status}`);
  }
  const text = parts.statusText;
  if (text !== undefined && !REASON_PHRASE.test(text)) {
    throw new TypeError(`Invalid status text ${JSON.stringify(text.slice(0, 64))}`);
  }
  const body = parts.body;
  if (body === null) return parts;
  if (NULL_BODY_STATUS.has(status)) {
    if (body instanceof ReadableStream) body.cancel().catch(() => {});
    parts.headers.delete("content-length");
    return { ...parts, body: null };
  }
  if ((typeof body === "string" || body instanceof Uint8Array) && parts.headers.has("content-length")) {
    const length = typeof body === "string" ? encoder.encode(body).byteLength : body.byteLength;
    parts.headers.set("content-length", String(length));
  }
  return parts;
}

// The parts sent: checked, and without a body for HEAD (the transforms saw GET's).
function finalParts(ctx: Context, made: ResponseParts): ResponseParts {
  const parts = checkedParts(made);
  const body = parts.body;
  if (ctx.request.method !== "HEAD" || body === null) return parts;
  if (body instanceof ReadableStream) body.cancel().catch(() => {});
  return { ...parts, body: null };
}

function lastTry(state: AppState, ctx: Context): ResponseParts {
  try {
    return buildParts(ctx, state.idHeader, false);
  } catch (error) {
    state.logger.error(`[portico] the response of request ${ctx.request.id} could not be built`, error);
    const parts = partsOf(lastResortResponse());
    parts.headers.set(state.idHeader, ctx.request.id);
    return parts;
  }
}

/**
 * The parts of `ctx.response`: the `Response` a handler returned (its headers copied, never modified: it
 * may be shared between requests), or the view rendered by `Accept`, or the written body; with the
 * request id, and without a body for HEAD. For the transforms (`toTransform`), a body of known bytes is
 * bytes with its `Content-Length`, and the headers a copy: what they set must not reach an error
 * response built after them.
 */
function buildParts(ctx: Context, idHeader: string, toTransform: boolean): ResponseParts {
  const state = ctx.response;
  const head = !toTransform && ctx.request.method === "HEAD";
  if (state.raw !== undefined) return fromReturned(state.raw, ctx, idHeader, head);
  let body: ResponseBody = state.body;
  let contentType: string | undefined;
  let vary = false;
  if (state.view !== undefined) {
    const rendered = renderView(state.view, ctx.request);
    body = rendered.body;
    contentType = rendered.contentType;
    vary = rendered.negotiated;
  }
  const status = state.status;
  // A status `new Response()` would refuse is refused here, on every runtime alike.
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`Response status must be an integer from 200 to 599, got ${status}`);
  }
  if (
    typeof body === "object" &&
    body !== null &&
    !(body instanceof Uint8Array) &&
    !NULL_BODY_STATUS.has(status)
  ) {
    if (body instanceof ArrayBuffer) body = new Uint8Array(body);
    else if (!(body instanceof ReadableStream)) {
      // A form, search parameters or a `Blob`: the bytes and the type the standard gives them.
      const made = new Response(body);
      contentType ??= made.headers.get("content-type") ?? undefined;
      body = body instanceof Blob ? body : made.body;
    }
  }
  // Every runtime would pick its own spelling; one default keeps responses identical everywhere.
  if (contentType === undefined && typeof body === "string" && body !== "") {
    contentType = "text/plain; charset=utf-8";
  }
  if (head || NULL_BODY_STATUS.has(status)) body = null;
  let length: number | undefined;
  if (toTransform && (typeof body === "string" || body instanceof Uint8Array)) {
    if (typeof body === "string") body = encoder.encode(body);
    length = body.byteLength;
  }
  let headers: ResponseHeaders;
  if (!state.hasHeaders) headers = new ResponseHeaders();
  else {
    headers = state.headers as ResponseHeaders;
    if (toTransform) headers = headers.copy();
    // The app's own type wins over the default and over a form's.
    if (contentType !== undefined && state.view === undefined && headers.hasOwn("content-type")) {
      contentType = undefined;
    }
  }
  // The id and the content type are Portico's own: an incoming id was checked when it was taken.
  headers.setOwn(idHeader, ctx.request.id);
  if (contentType !== undefined) headers.setOwn("content-type", contentType);
  if (vary) appendVary(headers, "Accept");
  if (length !== undefined) headers.setOwn("content-length", String(length));
  return { status, headers, body: body as ResponseParts["body"] };
}

// A returned Response keeps its status, body and headers; headers set on ctx.response are added where
// it has none of its own (so CORS-style middleware headers survive), and the id is always set — on a
// copy, since the same Response object may be returned to every request (a shared 204, say).
function fromReturned(raw: Response, ctx: Context, idHeader: string, head: boolean): ResponseParts {
  if (raw.status === 101) return partsOf(raw);
  const headers = new Headers(raw.headers);
  checkValues(headers);
  headers.set(idHeader, ctx.request.id);
  if (ctx.response.hasHeaders) {
    for (const [name, value] of ctx.response.headers) {
      if (name === "set-cookie" || !raw.headers.has(name)) headers.append(name, value);
    }
  }
  if (head && raw.body !== null) raw.body.cancel().catch(() => {});
  const parts: ResponseParts = { status: raw.status, headers, body: head ? null : raw.body };
  if (raw.statusText !== "") parts.statusText = raw.statusText;
  return parts;
}

function checkValues(headers: Headers): void {
  for (const [name, value] of headers) checkFieldValue(name, value);
}
