// How errors are rendered, as an app (`createApp({ errors })`), a namespace (`on(prefix, build, { errors })`)
// or a routes object (`defineRoutes(entries, { errors })`) says: the format when `Accept` names none,
// the JSON body, the status of parameter errors. A route's rendering is the app's, overlaid by each of
// its namespaces' from the outermost in; `rescue` renders with it and `openapi()` documents it.
import type { ErrorBody } from "./error-body.ts";
import { DEFAULT_RENDERING, type ErrorFormat, type ErrorRendering } from "./render-error.ts";

/** How an app, a namespace or a routes object renders its error responses (`errors`). */
export interface ErrorRenderingOptions {
  /**
   * What an error is sent as when the client's `Accept` names none of `text/plain`, `application/json`
   * and `text/html` (or is absent, or accepts any type), or ranks them equal: `"text"` (the default, readable
   * in a terminal) or `"json"` (the envelope `{ error: { name, message, code, payload } }`, what
   * generated API clients expect). A client that asks for one format gets it either way.
   */
  readonly format?: ErrorFormat;
  /**
   * The app's own JSON error body instead of Portico's envelope (`defineErrorBody({ schema, render })`):
   * what an API spec prescribes. The OpenAPI document shows its schema; each error response also
   * carries `Portico-Error: <declared name>`, which the typed client reads.
   */
  readonly body?: ErrorBody;
  /** The status of parameter errors (default 400; 422 where an API spec says so). */
  readonly paramsStatus?: number;
}

/** How an app with these options renders its errors, checked. */
export function errorRenderingOf(
  options: ErrorRenderingOptions | undefined,
  over: ErrorRendering = DEFAULT_RENDERING,
): ErrorRendering {
  const format = options?.format ?? over.format;
  if (format !== "text" && format !== "json" && format !== "problem")
    throw new TypeError(`errors.format must be "text", "json" or "problem", got ${JSON.stringify(format)}`);
  const paramsStatus = options?.paramsStatus ?? over.paramsStatus;
  if (!Number.isInteger(paramsStatus) || paramsStatus < 400 || paramsStatus > 499)
    throw new TypeError(`errors.paramsStatus must be a 4xx status, got ${String(paramsStatus)}`);
  const body = options?.body ?? over.body;
  if (body !== undefined && typeof body.render !== "function")
    throw new TypeError("errors.body must be made by defineErrorBody({ schema, render })");
  return Object.freeze({ format, body, paramsStatus });
}

/** A route's rendering: the app's, overlaid by its scopes' own options (outermost first). */
export function renderingFor(
  app: ErrorRendering,
  scopes: readonly { readonly errors?: ErrorRenderingOptions | undefined }[],
): ErrorRendering {
  let rendering = app;
  for (const scope of scopes)
    if (scope.errors !== undefined) rendering = errorRenderingOf(scope.errors, rendering);
  return rendering;
}
