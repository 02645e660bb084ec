import type { Context } from "../context/context.ts";
import { buildResponse, lightResponseKey } from "../context/light-response.ts";
import type { ResponseBody } from "../context/response-state.ts";
import { renderView } from "../view/render-view.ts";

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * Builds the `Response` for a handled request: the raw `Response` a handler returned, or the view
 * rendered by `Accept`, or the written body; with `X-Request-Id`, and without a body for HEAD.
 */
export function toResponse(ctx: Context, idHeader: string, head: boolean): Response {
  const state = ctx.response;
  if (state.raw !== undefined) return finishRaw(state.raw, ctx, idHeader, head);
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
  let headers: Record<string, string> | Headers;
  if (!state.hasHeaders) {
    headers = { [idHeader]: ctx.request.id };
    if (contentType !== undefined) headers["content-type"] = contentType;
    if (vary) headers.vary = "Accept";
  } else {
    headers = state.headers;
    headers.set(idHeader, ctx.request.id);
    if (contentType !== undefined) headers.set("content-type", contentType);
    if (vary) headers.append("vary", "Accept");
  }
  if (
    body === null ||
    typeof body === "string" ||
    body instanceof Uint8Array ||
    body instanceof ReadableStream
  ) {
    const light = (ctx.request.source as { [lightResponseKey]?: boolean })[lightResponseKey] === true;
    return buildResponse({ status, headers, body }, light);
  }
  return new Response(body, { status, headers });
}

// A returned Response keeps its own status, body and headers; headers set on ctx.response are added
// where it has none of its own (so CORS-style middleware headers survive), and the id is always set.
function finishRaw(raw: Response, ctx: Context, idHeader: string, head: boolean): Response {
  if (raw.status === 101) return raw;
  let response = raw;
  try {
    applyHeaders(response.headers, ctx, idHeader);
  } catch {
    // Immutable headers (a fetch() result, Response.redirect()): copy into a response we own.
    response = new Response(raw.body, raw);
    applyHeaders(response.headers, ctx, idHeader);
  }
  if (head && response.body !== null) {
    response.body.cancel().catch(() => {});
    response = new Response(null, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
  return response;
}

function applyHeaders(headers: Headers, ctx: Context, idHeader: string): void {
  headers.set(idHeader, ctx.request.id);
  if (!ctx.response.hasHeaders) return;
  for (const [name, value] of ctx.response.headers) {
    if (name === "set-cookie" || !headers.has(name)) headers.append(name, value);
  }
}
