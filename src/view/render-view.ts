import { pickMediaType } from "../http/accept.ts";
import { HtmlString } from "../http/html.ts";
import { toJSON } from "../http/json.ts";
import { firstProblem } from "../schema/serializer.ts";
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
  const definition = view[viewMark];
  const { renderers, mediaTypes } = definition;
  let renderer: CompiledRenderer = renderers[0]!;
  // Only a choice needs the request's headers (which some servers build lazily).
  if (renderers.length > 1) {
    const index = pickMediaType(request.headers.get("accept"), mediaTypes);
    if (index > 0) renderer = renderers[index]!;
  }
  const value = (renderer.render as (data: unknown) => unknown)(view.data);
  let body: string | Uint8Array;
  if (renderer.serialize !== undefined) {
    const undeclared: string[] | undefined = definition.strict ? [] : undefined;
    body = toJSON(renderer.serialize(value, undeclared && ((path) => undeclared.push(path))));
    if (undeclared !== undefined) checkStrictly(definition.schema!, value, undeclared);
  } else body = renderer.json ? toJSON(value) : toBody(value, renderer.mediaType);
  return {
    body,
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

// A strict view: what the JSON renderer returned must be what the schema declares, no more.
function checkStrictly(
  schema: Parameters<typeof firstProblem>[0],
  value: unknown,
  undeclared: string[],
): void {
  if (undeclared.length > 0) {
    throw new TypeError(
      `A strict view's JSON rendering holds undeclared fields: ${undeclared.slice(0, 5).join(", ")}`,
    );
  }
  const problem = firstProblem(schema, value);
  if (problem !== undefined) {
    throw new TypeError(`A strict view's JSON rendering does not fit its schema: ${problem}`);
  }
}
