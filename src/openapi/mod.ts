/**
 * The OpenAPI 3.1 document of an app, from its declarations (params, views, errors), the AsyncAPI 3.0
 * document of its websocket routes, and an optional reference page. Needs `@valibot/to-json-schema` (an optional peer dependency: install it with this
 * entry).
 *
 * @example
 * import { docsPage, openapi } from "portico/openapi";
 * const doc = openapi(app, { info: { title: "Users", version: "1.0.0" } });
 * app.get("/openapi.json", () => Response.json(doc));
 * app.get("/docs", docsPage({ specUrl: "/openapi.json" }));
 *
 * @module portico/openapi
 */

export { type AsyncApiDocument, type AsyncApiOptions, asyncapi } from "./asyncapi.ts";
export { type DocsPageOptions, docsPage, SCALAR_VERSION } from "./docs-page.ts";
export type { Schema } from "./json-schema.ts";
export { type OpenApiDocument, type OpenApiOptions, openapi } from "./openapi.ts";
export { serveDocument } from "./serve-document.ts";
