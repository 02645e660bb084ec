import type { BlockHandler } from "../context/handler.ts";
import { html } from "../http/html.ts";

/** The reference UI's version: pinned, so that the page does not change under the app. */
export const SCALAR_VERSION = "1.72.1";

/** Options of {@link docsPage}. */
export interface DocsPageOptions {
  /** Where the OpenAPI document is served (`/openapi.json`). */
  readonly specUrl: string;
  /** The page's title. Default "API reference". */
  readonly title?: string;
}

/**
 * A handler that serves an API reference page (Scalar, pinned to {@link SCALAR_VERSION}, loaded from
 * jsDelivr) for the document at `specUrl`. Optional: the OpenAPI document works without it.
 *
 * @example
 * app.get("/docs", docsPage({ specUrl: "/openapi.json" }));
 */
export function docsPage(options: DocsPageOptions): BlockHandler<unknown> {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title ?? "API reference"}</title></head>
<body><script id="api-reference" data-url="${options.specUrl}"></script>
<script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_VERSION}"></script></body></html>`
    .value;
  return () => new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
}
