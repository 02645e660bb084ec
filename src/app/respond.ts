import type { Context, ResponseTransform } from "../context/context.ts";
import type { ResponseBody } from "../context/response-state.ts";
import { FastResponse, writesParts } from "../fast-path/fast-path.ts";
import { checkFieldValue } from "../http/field-value.ts";
import { ResponseHeaders } from "../http/response-headers.ts";
import { appendVary } from "../http/vary.ts";
import type { Scope } from "../router/scope.ts";
import { renderView } from "../view/render-view.ts";
import { wasUpgraded } from "../ws/upgrade.ts";
import type { AppState } from "./app-state.ts";
import { lastResortResponse, rescue } from "./rescue.ts";

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const encoder = new TextEncoder();
// The bytes of responses built for transforms, so that `etag` and `compress` need not read them back.
const knownBodies = new WeakMap<Response, Uint8Array<ArrayBuffer>>();

/**
 * The body of a response Portico built from known bytes (a string, bytes, a rendered view) for the
 * response transforms, or `undefined` for any other response (which the caller then reads itself).
 */
export function bytesOf(response: Response): Uint8Array<ArrayBuffer> | undefined {
  return knownBodies.get(response);
}
// What Bun and the Node adapter get back once they answered a websocket handshake themselves.
const SWITCHED = new FastResponse({ status: 101, headers: {}, body: null }) as unknown as Response;

/**
 * The response for a handled request. Building it can fail (a bad status or header, a renderer that
 * throws): the error is then rescued once more, and as a last resort a plain 500 is sent.
 */
export function respond(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
): Response | Promise<Response> {
  if (state.hasWebSockets && wasUpgraded(ctx)) return SWITCHED;
  try {
    const transforms = ctx.response.transforms;
    if (transforms !== undefined) return transformed(state, ctx, scopes, transforms);
    return buildResponse(ctx, state.idHeader);
  } catch (error) {
    const rescued = rescue(state, ctx, error, scopes);
    return rescued instanceof Promise ? rescued.then(() => lastTry(state, ctx)) : lastTry(state, ctx);
  }
}

// The transforms see the full body (HEAD included, so an ETag or encoding matches GET's); a body of
// known bytes carries its length so they can tell it from a stream.
function transformed(
  state: AppState,
  ctx: Context,
  scopes: readonly Scope[],
  transforms: readonly ResponseTransform[],
): Response | Promise<Response> {
  const recover = (error: unknown): Response | Promise<Response> => {
    const rescued = rescue(state, ctx, error, scopes);
    return rescued instanceof Promise ? rescued.then(() => lastTry(state, ctx)) : lastTry(state, ctx);
  };
  // Synchronous as long as the transforms are: a promise only from the first one that returns one.
  const from = (index: number, response: Response): Response | Promise<Response> => {
    try {
      for (let i = index; i >= 0; i--) {
        const out = transforms[i]!(response, ctx);
        if (out instanceof Promise) return out.then((next) => from(i - 1, next), recover);
        response = out;
      }
      return withoutBodyForHead(ctx, response);
    } catch (error) {
      return recover(error);
    }
  };
  return from(transforms.length - 1, buildResponse(ctx, state.idHeader, true));
}

function withoutBodyForHead(ctx: Context, response: Response): Response {
  if (ctx.request.method !== "HEAD" || response.body === null) return response;
  response.body.cancel().catch(() => {});
  return new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function lastTry(state: AppState, ctx: Context): Response {
  try {
    return buildResponse(ctx, state.idHeader);
  } catch (error) {
    state.logger.error(`[portico] the response of request ${ctx.request.id} could not be built`, error);
    const response = lastResortResponse();
    response.headers.set(state.idHeader, ctx.request.id);
    return response;
  }
}

/**
 * Builds the `Response` from `ctx.response`: the `Response` a handler returned (copied, never
 * modified: it may be shared between requests), or the view rendered by `Accept`, or the written
 * body; with the request id, and without a body for HEAD.
 */
function buildResponse(ctx: Context, idHeader: string, toTransform = false): Response {
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
  // Every runtime would pick its own spelling; one default keeps responses identical everywhere.
  if (
    contentType === undefined &&
    typeof body === "string" &&
    body !== "" &&
    !(state.hasHeaders && state.headers.has("content-type"))
  ) {
    contentType = "text/plain; charset=utf-8";
  }
  if (head || NULL_BODY_STATUS.has(status)) body = null;
  else if (body instanceof ArrayBuffer) body = new Uint8Array(body);
  let length: number | undefined;
  if (toTransform && (typeof body === "string" || body instanceof Uint8Array)) {
    if (typeof body === "string") body = encoder.encode(body);
    length = body.byteLength;
  }
  let headers: Record<string, string> | Headers;
  if (!state.hasHeaders && !toTransform) {
    headers = { [idHeader]: ctx.request.id };
    if (contentType !== undefined) headers["content-type"] = contentType;
    if (vary) headers.vary = "Accept";
    if (length !== undefined) headers["content-length"] = String(length);
  } else {
    // For transforms, a copy: what they set must not reach an error response built after them.
    // Their values were checked as they were set (http/field-value.ts).
    if (!toTransform) headers = state.headers;
    else headers = state.hasHeaders ? new Headers(state.headers) : new Headers();
    // The id and the content type are Portico's own: an incoming id was checked when it was taken.
    if (headers instanceof ResponseHeaders) {
      headers.setOwn(idHeader, ctx.request.id);
      if (contentType !== undefined) headers.setOwn("content-type", contentType);
    } else {
      headers.set(idHeader, ctx.request.id);
      if (contentType !== undefined) headers.set("content-type", contentType);
    }
    if (vary) appendVary(headers, "Accept");
    if (length !== undefined) headers.set("content-length", String(length));
  }
  if (
    body === null ||
    typeof body === "string" ||
    body instanceof Uint8Array ||
    body instanceof ReadableStream
  ) {
    const response = writesParts(ctx.request.source)
      ? (new FastResponse({ status, headers, body }) as unknown as Response)
      : standardResponse(body as ConstructorParameters<typeof Response>[0], status, headers);
    if (length !== undefined) knownBodies.set(response, body as Uint8Array<ArrayBuffer>);
    return response;
  }
  return new Response(body as ConstructorParameters<typeof Response>[0], { status, headers });
}

// Bun and Deno fill a new Response's headers from a record in its init far more slowly than they set
// them on the Response once made: a body and two headers (the id and the type) cost Deno 1,965 ns
// against 442, and Bun 416 against 301 (mitata). So a record (the common case: no header set by the
// app) and the app's `ResponseHeaders` (http/response-headers.ts: plain values, unsorted) are set
// after; `set` replaces the type the constructor gives a string body, and a body whose type the
// constructor makes (form data, a Blob) never comes here. A runtime's own `Headers` (a transform's
// copy) goes through the init: Deno sorts and combines a `Headers` on every iteration, which the init
// does once.
function standardResponse(
  body: ConstructorParameters<typeof Response>[0],
  status: number,
  headers: Record<string, string> | Headers,
): Response {
  if (headers instanceof Headers) return new Response(body, { status, headers });
  const response = new Response(body, status === 200 ? undefined : { status });
  const target = response.headers;
  if (headers instanceof ResponseHeaders) {
    // Set first (replacing the type the constructor gave), then appended as the app appended.
    headers.send((name, value, first) => (first ? target.set(name, value) : target.append(name, value)));
  } else for (const name in headers) target.set(name, headers[name]!);
  return response;
}

// A returned Response keeps its status, body and headers; headers set on ctx.response are added where
// it has none of its own (so CORS-style middleware headers survive), and the id is always set — on a
// copy, since the same Response object may be returned to every request (a shared 204, say).
function fromReturned(raw: Response, ctx: Context, idHeader: string, head: boolean): Response {
  if (raw.status === 101) return raw;
  const headers = new Headers(raw.headers);
  checkValues(headers);
  headers.set(idHeader, ctx.request.id);
  if (ctx.response.hasHeaders) {
    for (const [name, value] of ctx.response.headers) {
      if (name === "set-cookie" || !raw.headers.has(name)) headers.append(name, value);
    }
  }
  if (head && raw.body !== null) raw.body.cancel().catch(() => {});
  const body = head ? null : raw.body;
  if (writesParts(ctx.request.source)) {
    return new FastResponse({ status: raw.status, headers, body }) as unknown as Response;
  }
  return new Response(body, { status: raw.status, statusText: raw.statusText, headers });
}

function checkValues(headers: Headers): void {
  for (const [name, value] of headers) checkFieldValue(name, value);
}
