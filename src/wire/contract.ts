// The wire contract, written once: what the server sends and the client and the OpenAPI document read
// — the parameter sources, their error names, the error envelope, and the words an error name is shown
// as, and the OpenAPI extension the client reads. The server's rendering, `openapi()` and the typed
// client import it; it imports nothing. (The route syntax the three share is `path-pattern.ts`.)

/** An HTTP token (RFC 9110 §5.6.2): a method, a header name, a cookie name. */
export const TOKEN: RegExp = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The parameter sources: path, query, request headers, cookies, form body, JSON body. */
export type ParamSource = "path" | "query" | "headers" | "cookies" | "form" | "json";

/** Each source's error name (400 over HTTP, 4000 in channels). */
export const PARAM_ERROR_NAMES: Readonly<Record<ParamSource, string>> = {
  path: "PathParamsError",
  query: "QueryParamsError",
  headers: "HeaderParamsError",
  cookies: "CookieParamsError",
  form: "FormBodyError",
  json: "JSONBodyError",
};

/** The body of every JSON error response: `{ "error": { name, message, code, payload } }`. */
export interface ErrorEnvelope {
  readonly error: {
    /** The error's name in words (`Post Not Found`). */
    readonly name: string;
    /** What went wrong, or `null` for an unexpected error. */
    readonly message: string | null;
    /** The HTTP status (or the websocket close code). */
    readonly code: number;
    /** The declared payload, or `null`. */
    readonly payload: unknown;
  };
}

/**
 * The response header naming the declared error (`UserNotFound`) when an app writes its own error body
 * (`createApp({ errors: { body } })`), which may not say: sent by the server, read by the typed client.
 */
export const ERROR_NAME_HEADER = "portico-error";

/**
 * On an error response of the OpenAPI document, when the app writes its own error body: the declared
 * errors the response stands for, by name. Written by the document, read by the client.
 */
export const ERRORS_EXTENSION = "x-portico-errors";

// Error names are few (the declared ones): their words are remembered rather than found by three
// regexp replacements per error response (2 % of a declared 404's CPU on Node). Bounded, for names
// made at run time.
const words = new Map<string, string>();

/** Splits an identifier into words: `PostNotFound` → `Post Not Found`, `JSONBodyError` → `JSON Body Error`. */
export function toWords(name: string): string {
  let split = words.get(name);
  if (split === undefined) {
    split = name
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .replace(/[_-]+/g, " ");
    if (words.size >= 256) words.clear();
    words.set(name, split);
  }
  return split;
}

/**
 * On a path parameter that may hold slashes (a wildcard, `*` or `+`): the client keeps them unencoded.
 * An OpenAPI specification extension, written by the document and read by the client.
 */
export const MULTI_SEGMENT = "x-portico-multi-segment";

/**
 * Where a path item of the OpenAPI document describes a websocket route (its operationId, upgrade
 * parameters, close codes and messages): written by the document, read by the client.
 */
export const WEBSOCKET_EXTENSION = "x-portico-websocket";
