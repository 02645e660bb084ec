import { pickMediaType } from "../http/accept.ts";
import { HtmlString } from "../http/html.ts";
import { toJSON } from "../http/json.ts";
import { type CompiledRenderer, type View, viewMark } from "./define-view.ts";

/** A rendered view: the body and its `Content-Type`. */
export interface RenderedView {
  readonly body: string | Uint8Array;
  readonly contentType: string;
  /** True when the choice depended on `Accept` (the response then varies on it). */
  readonly negotiated: boolean;
}

/**
 * Renders a view for a request's `Accept` header. With one renderer, or when the client accepts none
 * of them, the first declared renderer is used.
 */
export function renderView(view: View, request: { readonly headers: Headers }): RenderedView {
  const { renderers, mediaTypes } = view[viewMark];
  let renderer: CompiledRenderer = renderers[0]!;
  // Only a choice needs the request's headers (which some servers build lazily).
  if (renderers.length > 1) {
    const index = pickMediaType(request.headers.get("accept"), mediaTypes);
    if (index > 0) renderer = renderers[index]!;
  }
  const value = (renderer.render as (data: unknown) => unknown)(view.data);
  return {
    body: renderer.json ? toJSON(value) : toBody(value, renderer.mediaType),
    contentType: renderer.contentType,
    negotiated: renderers.length > 1,
  };
}

// A renderer for a text or binary type returns a string or bytes; an object there is a mistake that
// would send "[object Object]" (a 500, logged, is the honest answer).
function toBody(value: unknown, mediaType: string): string | Uint8Array {
  if (typeof value === "string" || value instanceof Uint8Array) return value;
  if (value instanceof HtmlString) return value.value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value === undefined || value === null) return "";
  if (typeof value === "object") {
    throw new TypeError(
      `The ${mediaType} renderer returned an object: return a string or bytes (only JSON renderers serialise objects)`,
    );
  }
  return String(value);
}
