import { cspNonce } from "../context/csp-nonce.ts";
import type { BlockHandler } from "../context/handler.ts";
import { html } from "../http/html.ts";

/** The reference UI's version: pinned, so that the page does not change under the app. */
export const SCALAR_VERSION = "1.72.1";

// The pinned file (jsDelivr serves npm files byte for byte) and its Subresource Integrity hash, taken
// from the package on the npm registry (`dist/browser/standalone.js` of @scalar/api-reference@1.72.1;
// `.runtimes/ensure.mjs` checks it against the registry's file before the browser tests use it).
const SCALAR_SCRIPT = `https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_VERSION}/dist/browser/standalone.js`;
const SCALAR_INTEGRITY = "sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK";
// Where Scalar's default fonts come from (none with `fonts: false`).
const SCALAR_FONTS = "https://fonts.scalar.com";

/** Options of {@link docsPage}. */
export interface DocsPageOptions {
  /** Where the OpenAPI document is served (`/openapi.json`). */
  readonly specUrl: string;
  /** The page's title. Default "API reference". */
  readonly title?: string;
  /**
   * Where the page loads Scalar from: by default the pinned file on jsDelivr, with its integrity hash.
   * Give your own URL to self-host it (serve `dist/browser/standalone.js` of
   * `@scalar/api-reference@${SCALAR_VERSION}`, for pages that must work offline or make no third-party
   * request).
   */
  readonly scriptUrl?: string;
  /** Scalar's default fonts, from `fonts.scalar.com` (default `true`); `false`: the system's fonts. */
  readonly fonts?: boolean;
  /**
   * The page's own Content-Security-Policy, which replaces the app's on this one response (`true`, the
   * default): scripts by this request's nonce only, inline styles (Scalar injects them: no nonce-only
   * style policy can run it), fonts from Scalar's font host, requests to the page's origin, the
   * document's and `connectSrc`. `false` leaves the app's policy, which must then allow all of that.
   */
  readonly csp?: boolean;
  /**
   * Origins the reference's "try it" may send requests to besides the page's own (`https://api.example`):
   * the document's servers when they are elsewhere.
   */
  readonly connectSrc?: readonly string[];
}

/**
 * A handler that serves an API reference page (Scalar, pinned to {@link SCALAR_VERSION}, loaded from
 * jsDelivr with Subresource Integrity, or from `scriptUrl`) for the document at `specUrl`. Its script
 * tags carry the request's CSP nonce, and it answers with the policy the page needs (see
 * {@link DocsPageOptions.csp}), so it renders under any policy the app sets elsewhere. Optional: the
 * OpenAPI document works without it.
 *
 * @example
 * app.get("/docs", docsPage({ specUrl: "/openapi.json" }));
 */
export function docsPage(options: DocsPageOptions): BlockHandler<unknown> {
  const title = options.title ?? "API reference";
  const fonts = options.fonts !== false;
  const script =
    options.scriptUrl === undefined
      ? html`src="${SCALAR_SCRIPT}" integrity="${SCALAR_INTEGRITY}" crossorigin="anonymous"`
      : html`src="${options.scriptUrl}"`;
  const configuration = fonts
    ? ""
    : html` data-configuration="${JSON.stringify({ withDefaultFonts: false })}"`;
  const policy = options.csp === false ? undefined : pagePolicy(options, fonts);
  return (ctx) => {
    const nonce = cspNonce(ctx);
    const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head>
<body><script id="api-reference" nonce="${nonce}" data-url="${options.specUrl}"${configuration}></script>
<script nonce="${nonce}" ${script}></script></body></html>`.value;
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
    if (policy !== undefined) headers["content-security-policy"] = policy(nonce);
    return new Response(page, { headers });
  };
}

// The page's policy, but for the nonce. Scalar's standalone build also probes `Function("")` once (a
// bundled validator checking whether eval is allowed): refused here, it falls back and renders the same.
function pagePolicy(options: DocsPageOptions, fonts: boolean): (nonce: string) => string {
  const connect = ["'self'", ...originOf(options.specUrl), ...(options.connectSrc ?? [])].map(source);
  const directives = [
    "default-src 'none'",
    "script-src NONCE",
    "style-src 'self' 'unsafe-inline'",
    `font-src 'self'${fonts ? ` ${SCALAR_FONTS}` : ""}`,
    "img-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(" ")}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  const [before, after] = directives.split("NONCE") as [string, string];
  return (nonce) => `${before}'nonce-${nonce}'${after}`;
}

// Where the document is fetched from when it is elsewhere: the origin of an absolute URL, the host of a
// scheme-relative one (a CSP host source: the page's scheme); nothing for a path.
function originOf(url: string): string[] {
  if (/^https?:\/\//i.test(url)) return [new URL(url).origin];
  if (url.startsWith("//")) return [new URL(url, "https://scheme-relative.invalid").host];
  return [];
}

// A CSP source as given: printable ASCII without the characters that end one.
function source(origin: string): string {
  if (!/^[\x21-\x7e]+$/.test(origin) || /[;,'"]/.test(origin.replace(/^'self'$/, "")))
    throw new TypeError(`docsPage(): ${JSON.stringify(origin)} is not a CSP source (connectSrc, specUrl)`);
  return origin;
}
