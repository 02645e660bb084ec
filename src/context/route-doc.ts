// What a route says about itself in the OpenAPI document beyond its declarations: words (summary,
// description, tags), its state (deprecated, hidden), and answers no declaration shows (a redirect, a
// 304, a stream, the headers a success carries). Given by an endpoint (`doc`), a route
// (`route(…, { doc })`), a namespace (`on(prefix, build, { doc })`) or a router (`r.doc(…)`); merged
// outermost first, the endpoint's last. And what a middleware declares about the routes it wraps.
import type { Middleware } from "./handler.ts";

/** A response header in the document: its description, or a description and a JSON Schema. */
export type HeaderDoc =
  | string
  | { readonly description?: string; readonly schema?: object; readonly required?: boolean };

/** An answer the route gives besides its view and its declared errors. */
export interface ResponseDoc {
  /** What it means (`Moved to the new address`). */
  readonly description: string;
  /** The headers it carries (`{ Location: "The new address" }`). */
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
  /** The media types of its body (`["text/event-stream"]`), each a string; none for an empty body. */
  readonly mediaTypes?: readonly string[];
}

/** A route's documentation. */
export interface RouteDoc {
  /** A short line (default: the route's name in words, `getUser` → `Get user`). */
  readonly summary?: string;
  /** Longer text (CommonMark). */
  readonly description?: string;
  /** Groups in the document's viewers; a namespace's tags come before its routes' own. */
  readonly tags?: readonly string[];
  /** Marked deprecated (a namespace's marks every route under it). */
  readonly deprecated?: boolean;
  /** Left out of the document (a namespace's hides every route under it). */
  readonly hidden?: boolean;
  /** Where more is written. */
  readonly externalDocs?: { readonly url: string; readonly description?: string };
  /** Headers the success response carries (`{ "Cache-Control": "…" }`). */
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
  /**
   * Answers besides the view's and the declared errors', by status: a redirect (`302: { description,
   * headers: { Location: "…" } }`), a `304`, or the success of a block handler (`200: { description,
   * mediaTypes: ["text/event-stream"] }`, which replaces "not declared").
   */
  readonly responses?: Readonly<Record<number, string | ResponseDoc>>;
}

/** Docs merged, outermost first: words and answers of the inner win, tags add up, marks stay. */
export function mergeDocs(docs: readonly (RouteDoc | undefined)[]): RouteDoc {
  let merged: RouteDoc = {};
  for (const doc of docs) {
    if (doc === undefined) continue;
    const tags = [...(merged.tags ?? []), ...(doc.tags ?? []).filter((tag) => !merged.tags?.includes(tag))];
    merged = {
      ...merged,
      ...doc,
      ...(tags.length > 0 ? { tags } : {}),
      ...(merged.deprecated || doc.deprecated ? { deprecated: true } : {}),
      ...(merged.hidden || doc.hidden ? { hidden: true } : {}),
      ...(merged.headers || doc.headers ? { headers: { ...merged.headers, ...doc.headers } } : {}),
      ...(merged.responses || doc.responses ? { responses: { ...merged.responses, ...doc.responses } } : {}),
    };
  }
  return merged;
}

/** An OpenAPI security scheme, as a middleware that checks credentials declares it. */
export type SecurityScheme = { readonly description?: string } & (
  | { readonly type: "http"; readonly scheme: string; readonly bearerFormat?: string }
  | { readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly name: string }
  | { readonly type: "openIdConnect"; readonly openIdConnectUrl: string }
  | { readonly type: "oauth2"; readonly flows: Readonly<Record<string, unknown>> }
  | { readonly type: "mutualTLS" }
);

/**
 * The credentials a middleware asks for: its schemes by name (all of them required together), and
 * whether a request without any is let through (`optional`: the document then also allows none).
 */
export interface SecurityDeclaration {
  /** The schemes, by the name `components.securitySchemes` gives them. */
  readonly schemes: Readonly<Record<string, SecurityScheme>>;
  /** A request without credentials is let through (the document also allows none). */
  readonly optional?: boolean;
}

/** What a middleware declares about the routes it wraps (see `declaring()` in `portico/middleware`). */
export interface MiddlewareDeclaration<TErrors> {
  /** The errors it may refuse requests with: `{ Name: ErrorClass }` (from `defineError`). */
  readonly errors?: TErrors;
  /** On which methods it refuses, and its headers apply (default: all): `csrf()` never refuses a GET. */
  readonly declaresFor?: (method: string) => boolean;
  /** The credentials it checks: an OpenAPI security scheme for each, required on the routes it wraps. */
  readonly security?: SecurityDeclaration;
  /** Headers it adds to the routes' answers (`{ ETag: "The representation's tag" }`). */
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
  /** Answers it gives itself besides errors, by status (`etag()`'s 304). */
  readonly responses?: Readonly<Record<number, string | ResponseDoc>>;
}

/**
 * Middleware that says what it does to the routes it wraps: the errors it may refuse with (listed in
 * the OpenAPI document and the client's error union), the credentials it checks (`securitySchemes` and
 * each operation's `security`), and the headers it adds.
 */
export type DeclaringMiddleware<TErrors> = Middleware<unknown> & {
  readonly errors: TErrors;
  readonly declaresFor?: (method: string) => boolean;
  readonly security?: SecurityDeclaration;
  readonly headers?: Readonly<Record<string, HeaderDoc>>;
  readonly responses?: Readonly<Record<number, string | ResponseDoc>>;
};
