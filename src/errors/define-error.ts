import type { Entries, InferEntries } from "../schema/entries.ts";
import { HttpError } from "./http-error.ts";

/** The payload an error with these entries carries (`undefined` without entries). */
export type PayloadOf<TEntries> = TEntries extends undefined
  ? undefined
  : TEntries extends Entries
    ? InferEntries<TEntries>
    : undefined;

/** A declared error class: `new Name(payload?)` gives an {@link HttpError} with the declared code. */
export interface ErrorClass<TEntries = undefined> {
  /** Makes the error, with its payload when the declaration has one. */
  new (
    // `undefined` first: without strictNullChecks, `undefined extends Entries` holds.
    ...args: TEntries extends undefined ? [] : TEntries extends Entries ? [payload: PayloadOf<TEntries>] : []
  ): HttpError<PayloadOf<TEntries>>;
  /** The declared code. */
  readonly code: number;
  /** The declared payload entries (`undefined` without a payload). */
  readonly payloadEntries: TEntries | undefined;
  /** Its Problem Details `type` URI, when declared. */
  readonly problemType?: string | undefined;
}

/**
 * What a declared payload must be: entries of schemas. Anything else is a type error at the
 * declaration that says so (rather than a payload typed `undefined` where it is used).
 */
export type PayloadEntries<TEntries> = TEntries extends Entries
  ? TEntries
  : {
      readonly "a declared error's payload is an object of schemas, as { id: t.int32(), reason: v.string() }": never;
    };

/** How one error is declared (see `errors` in `defineEndpoint`). */
export type ErrorDeclaration<TEntries = unknown> =
  | number
  | { readonly code: number; readonly message?: string; readonly type?: string }
  | {
      readonly code: number;
      readonly payload: TEntries & PayloadEntries<TEntries>;
      readonly message?: string | ((payload: PayloadOf<TEntries>) => string);
      readonly type?: string;
    }
  | ErrorClass<TEntries>;

/** The declarations of an endpoint's or channel's errors, by name. */
export type ErrorDeclarations<TErrors> = { readonly [K in keyof TErrors]: ErrorDeclaration<TErrors[K]> };

/** The error classes made from declarations, by name. */
export type ErrorClasses<TErrors> = {
  readonly [K in keyof TErrors]: unknown extends TErrors[K] ? ErrorClass<undefined> : ErrorClass<TErrors[K]>;
};

/** Options of {@link defineError}. */
export interface ErrorOptions<TEntries> {
  /** A fixed message, or one built from the payload. */
  readonly message?: string | ((payload: PayloadOf<TEntries>) => string);
  /** The payload's attributes, as valibot schemas. */
  readonly payload?: TEntries;
  /** Its RFC 9457 Problem Details `type`: a URI that documents it (default `about:blank`). */
  readonly type?: string;
}

const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Declares an error to share between endpoints and channels.
 *
 * @example
 * export const PostNotFound = defineError("PostNotFound", 404, { message: "No such post" });
 * const GetPost = defineEndpoint({ errors: { PostNotFound }, call(ep) { throw new ep.errors.PostNotFound(); } });
 */
export function defineError<const TEntries extends Entries | undefined = undefined>(
  name: string,
  code: number,
  options: ErrorOptions<TEntries> = {},
): ErrorClass<TEntries> {
  if (!NAME.test(name)) throw new TypeError(`Error name must be an identifier, got "${name}"`);
  if (!Number.isInteger(code) || !((code >= 400 && code <= 599) || (code >= 3000 && code <= 4999))) {
    throw new RangeError(`Error ${name}: code must be 400–599 (HTTP) or 3000–4999 (websocket), got ${code}`);
  }
  const { message, payload: entries, type } = options;
  if (type !== undefined && (typeof type !== "string" || /[\s"<>]/.test(type) || type === ""))
    throw new TypeError(`Error ${name}: type must be a URI reference, got ${JSON.stringify(type)}`);
  const keys = entries ? Object.keys(entries) : undefined;
  const declared = class extends HttpError<unknown> {
    static readonly code: number = code;
    static readonly payloadEntries: TEntries | undefined = entries;
    static readonly problemType: string | undefined = type;
    readonly problemType: string | undefined = type;
    constructor(payload?: Record<string, unknown>) {
      const kept = keys ? pick(payload ?? {}, keys) : undefined;
      super(code, name, typeof message === "function" ? message(kept as PayloadOf<TEntries>) : message, kept);
    }
  };
  Object.defineProperty(declared, "name", { value: name });
  return declared as unknown as ErrorClass<TEntries>;
}

/** Makes the error classes of an `errors` declaration. */
export function defineErrors<TErrors>(
  declarations: ErrorDeclarations<TErrors> | undefined,
): ErrorClasses<TErrors> {
  const classes: Record<string, ErrorClass<unknown>> = {};
  for (const [name, declaration] of Object.entries(declarations ?? {}) as [string, ErrorDeclaration][]) {
    if (typeof declaration === "function") classes[name] = declaration;
    else if (typeof declaration === "number")
      classes[name] = defineError(name, declaration) as ErrorClass<unknown>;
    else {
      const options: { message?: unknown; payload?: unknown; type?: string } = {
        message: declaration.message,
      };
      if (declaration.type !== undefined) options.type = declaration.type;
      if ("payload" in declaration) options.payload = declaration.payload;
      classes[name] = defineError(
        name,
        declaration.code,
        options as ErrorOptions<Entries>,
      ) as ErrorClass<unknown>;
    }
  }
  return Object.freeze(classes) as ErrorClasses<TErrors>;
}

// Only the declared attributes make it into the payload.
function pick(payload: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = payload[key];
  return out;
}
