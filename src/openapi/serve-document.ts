// Serving the OpenAPI document: its JSON, with the server URL the client used when the document names
// none (behind a trusted proxy, the public one), so that a reference page's "try it" reaches the API
// through the proxy rather than the address the app listens on.
import type { BlockHandler } from "../context/handler.ts";

// Bodies by origin: a server answers under a few names; the cache is bounded for a client sending many.
const MAX_ORIGINS = 16;

/**
 * A handler that serves a document (`openapi(app)`'s, or `asyncapi(app)`'s) as JSON. When the document
 * has no `servers`, each answer names the origin of the request's URL — behind a trusted proxy
 * (`trustProxy`), the scheme and Host the client used — so tools that call the API from the document
 * reach it the way the client did.
 *
 * @example
 * const doc = openapi(app, { info: { title: "Users", version: "1.0.0" } });
 * app.get("/openapi.json", serveDocument(doc));
 */
export function serveDocument(document: object): BlockHandler<unknown> {
  const fixed = "servers" in document ? JSON.stringify(document) : undefined;
  const byOrigin = new Map<string, string>();
  return (ctx) => {
    let body = fixed;
    if (body === undefined) {
      const origin = new URL(ctx.request.url).origin;
      body = byOrigin.get(origin);
      if (body === undefined) {
        body = JSON.stringify({ ...document, servers: [{ url: origin }] });
        if (byOrigin.size >= MAX_ORIGINS) byOrigin.clear();
        byOrigin.set(origin, body);
      }
    }
    return new Response(body, { headers: { "content-type": "application/json" } });
  };
}
