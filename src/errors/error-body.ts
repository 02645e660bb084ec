// An app's own error body: how its errors are written in JSON instead of Portico's envelope, with the
// schema the OpenAPI document shows for it. The spec an API follows decides (RealWorld's
// `{ "errors": { "body": [...] } }`, a company's standard); the framework keeps the status, the
// headers, the other formats, and tells the typed client which declared error it was.
import type { InferDeclaration, SourceDeclaration } from "../schema/entries.ts";

/** What an error body is made from. */
export interface ErrorDetails {
  /** The declared name (`UserNotFound`, `JSONBodyError`; `InternalServerError` for anything unexpected). */
  readonly name: string;
  /** The name in words (`User Not Found`). */
  readonly title: string;
  /** The message, or `null` (always `null` for an unexpected error, unless the app is verbose). */
  readonly message: string | null;
  /** The status sent. */
  readonly code: number;
  /** The declared payload (a parameter error's: `{ path, issues }`), or `null`. */
  readonly payload: unknown;
  /** A parameter error's issues (each `{ path, message }`), else an empty list. */
  readonly issues: readonly { readonly path: readonly string[]; readonly message: string }[];
}

/** An app's error body: how to write one, and its schema. */
export interface ErrorBody<TBody = unknown> {
  /** The body of an error response in JSON, for the error described. */
  readonly render: (error: ErrorDetails) => TBody;
  /** Its schema (valibot, any Standard Schema, or entries), for the OpenAPI document. */
  readonly schema?: SourceDeclaration;
  /** The name of the schema in the document's components (default `"Error"`). */
  readonly name?: string;
}

/**
 * Declares an app's own error body, typed by its schema; give it to `createApp({ errors: { body } })`.
 *
 * @example
 * const conduitErrors = defineErrorBody({
 *   name: "GenericErrorModel",
 *   schema: v.object({ errors: v.object({ body: v.array(v.string()) }) }),
 *   render: (error) => ({ errors: { body: error.issues.length > 0 ? error.issues.map((i) => i.message) : [error.message ?? error.title] } }),
 * });
 */
export function defineErrorBody<const TSchema extends SourceDeclaration>(body: {
  readonly schema: TSchema;
  readonly render: (error: ErrorDetails) => InferDeclaration<TSchema>;
  readonly name?: string;
}): ErrorBody<InferDeclaration<TSchema>> {
  if (typeof body.render !== "function") throw new TypeError("defineErrorBody(): render must be a function");
  if (body.name !== undefined && !/^[A-Za-z0-9._-]+$/.test(body.name))
    throw new TypeError(`defineErrorBody(): the name ${JSON.stringify(body.name)} is not a component name`);
  return Object.freeze({ ...body });
}
