import { cspNonce } from "../context/csp-nonce.ts";
import type { BlockHandler } from "../context/handler.ts";
import { html } from "../http/html.ts";

/** The reference UI's version: pinned, so that the page does not change under the app. */
export const SCALAR_VERSION = "1.72.1";

// The pinned file (jsDelivr serves npm files byte for byte) and its Subresource Integrity hash, taken
// from the package on the npm registry (`dist/browser/standalone.js` of @scalar/api-reference@1.72.1).
const SCALAR_SCRIPT = `https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_VERSION}/dist/browser/standalone.js`;
const SCALAR_INTEGRITY = "sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK";

/** Options of {@link docsPage}. */
export interface DocsPageOptions {
  /** Where the OpenAPI document is served (`/openapi.json`). */
  readonly specUrl: string;
  /** The page's title. Default "API reference". */
  readonly title?: string;
  /**
   * Where the page loads Scalar from: by default the pinned file on jsDelivr, with its integrity hash.
   * Give your own URL to self-host it (serve `dist/browser/standalone.js` of
   * `@scalar/api-reference@${SCALAR_VERSION}`, for pages that must work offline or under `script-src 'self'`).
   */
  readonly scriptUrl?: string;
}

/**
 * A handler that serves an API reference page (Scalar, pinned to {@link SCALAR_VERSION}, loaded from
 * jsDelivr with Subresource Integrity, or from `scriptUrl`) for the document at `specUrl`. Its script
 * tags carry the request's CSP nonce, so that `secureHeaders()` with `scriptSrc: [NONCE]` lets them run.
 * Optional: the OpenAPI document works without it.
 *
 * @example
 * app.get("/docs", docsPage({ specUrl: "/openapi.json" }));
 */
export function docsPage(options: DocsPageOptions): BlockHandler<unknown> {
  const title = options.title ?? "API reference";
  const script =
    options.scriptUrl === undefined
      ? html`src="${SCALAR_SCRIPT}" integrity="${SCALAR_INTEGRITY}" crossorigin="anonymous"`
      : html`src="${options.scriptUrl}"`;
  return (ctx) => {
    const nonce = cspNonce(ctx);
    const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head>
<body><script id="api-reference" nonce="${nonce}" data-url="${options.specUrl}"></script>
<script nonce="${nonce}" ${script}></script></body></html>`.value;
    return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
  };
}
