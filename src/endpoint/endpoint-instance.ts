import type { Context } from "../context/context.ts";
import type { RequestInfo } from "../context/request-info.ts";
import type { ErrorClasses } from "../errors/define-error.ts";
import { badRequestError } from "../errors/http-error.ts";
import { encodeLocation, isLocalPath } from "../http/location.ts";
import type { InferParams, ParamsDeclaration } from "../params/parse-params.ts";
import type { View } from "../view/define-view.ts";

/** What every endpoint instance offers, whatever it declares. */
export interface EndpointHelpers<TErrors> {
  /** The request context. */
  readonly context: Context;
  /** The request (= `context.request`). */
  readonly request: RequestInfo;
  /** The declared error classes: `throw new ep.errors.NotFound()`. */
  readonly errors: ErrorClasses<TErrors>;
  /** Sets the view to render; the last call wins, and wins over `call`'s return value. */
  view(view: View): void;
  /** Sets the response status. */
  status(code: number): void;
  /** Sets a response header. */
  header(name: string, value: string): void;
  /**
   * Sets the status (default 302) and `Location` (non-ASCII percent-encoded). Does not stop
   * execution. With `{ localOnly: true }`, a target that is not a path on this site (`//host`,
   * `https:…`, `javascript:`) is refused with a 400: use it for targets taken from the request.
   */
  redirect(location: string, code?: number, options?: RedirectOptions): void;
}

/** Options of `ep.redirect`. */
export interface RedirectOptions {
  /** Refuse (400) a target that is not a path on this site, e.g. a `?next=` from the client. */
  readonly localOnly?: boolean;
}

/** The endpoint instance `ep` that callbacks and `call` get; `params` exists only when declared. */
export type EndpointInstance<TParams extends ParamsDeclaration, TErrors> = EndpointHelpers<TErrors> &
  ([TParams] extends [never] ? unknown : { readonly params: InferParams<TParams> });

const REDIRECT_CODES = new Set([300, 301, 302, 303, 307, 308]);

/** The runtime object behind `ep`. */
export class EndpointRun implements EndpointHelpers<unknown> {
  readonly context: Context;
  readonly errors: ErrorClasses<unknown>;
  params: Record<string, unknown> | undefined = undefined;
  /** The view set with `view()`, if any. */
  chosenView: View | undefined = undefined;
  /** What `call` returned. */
  returned: unknown = undefined;

  constructor(context: Context, errors: ErrorClasses<unknown>) {
    this.context = context;
    this.errors = errors;
  }

  /** The endpoint's outcome: the chosen view, else what `call` returned (the router filters it). */
  outcome(): unknown {
    return this.chosenView ?? this.returned;
  }

  get request(): RequestInfo {
    return this.context.request;
  }

  view(view: View): void {
    this.chosenView = view;
  }

  status(code: number): void {
    this.context.response.status = code;
  }

  header(name: string, value: string): void {
    this.context.response.headers.set(name, value);
  }

  redirect(location: string, code = 302, options?: RedirectOptions): void {
    if (!REDIRECT_CODES.has(code))
      throw new RangeError(`Redirect status must be 300–303, 307 or 308, got ${code}`);
    if (/[\r\n]/.test(location)) throw badRequestError("Redirect location must not contain CR or LF");
    if (options?.localOnly === true && !isLocalPath(location)) {
      throw badRequestError("Redirect target must be a path on this site");
    }
    this.context.response.status = code;
    this.context.response.headers.set("location", encodeLocation(location));
  }
}
