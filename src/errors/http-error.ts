/**
 * An error that carries an HTTP-style code. The rescuer turns it into a response; channels close with it.
 *
 * @example
 * throw new HttpError(403, "Forbidden", "Admins only");
 */
export interface HttpError<TPayload = unknown> {
  /** The status (HTTP) or close code (channels) this error stands for. */
  readonly code: number;
  /** The error's name as declared, e.g. `PostNotFound`; rendered split into words. */
  name: string;
  /** The message, or `undefined` when the error was declared without one. */
  message: string | undefined;
  /** The declared attributes, or `undefined` when the error has none. */
  readonly payload: TPayload;
  /** Extra response headers the rescuer adds (e.g. `Allow` on a 405). */
  readonly headers: Record<string, string> | undefined;
  /** Not captured: an HttpError is an answer, not a bug (capturing a trace cost more than the answer). */
  stack?: string | undefined;
}

// Where the intrinsics are frozen (SES), the limit stays as it is.
const STACK_LIMIT_WRITABLE = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit")?.writable === true;

// `Error` says `message: string`; an HttpError's is `undefined` when declared without one. So the
// class extends the runtime `Error` and is typed through the interface above.
class HttpErrorClass<TPayload> extends Error {
  readonly code: number;
  readonly payload: TPayload;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: number,
    name: string,
    message?: string,
    payload?: TPayload,
    headers?: Record<string, string>,
  ) {
    // No stack trace: an HttpError is an answer, not a bug, and Portico never shows or logs its stack.
    // Capturing one was the largest cost of a declared 404 (10 % of a request's CPU on Node).
    const limit = Error.stackTraceLimit;
    if (STACK_LIMIT_WRITABLE) Error.stackTraceLimit = 0;
    super(message);
    if (STACK_LIMIT_WRITABLE) Error.stackTraceLimit = limit;
    this.code = code;
    this.name = name;
    (this as { message: string | undefined }).message = message;
    this.payload = payload as TPayload;
    this.headers = headers;
  }
}

/** Builds an {@link HttpError}: `new HttpError(code, name, message?, payload?, headers?)`; subclass it freely. */
export const HttpError: {
  new <TPayload = unknown>(
    code: number,
    name: string,
    message?: string,
    payload?: TPayload,
    headers?: Record<string, string>,
  ): HttpError<TPayload>;
  readonly prototype: HttpError;
} = HttpErrorClass as never;

/** True when `value` is an {@link HttpError} (also across bundled copies of Portico). */
export function isHttpError(value: unknown): value is HttpError {
  return (
    value instanceof HttpError ||
    (typeof value === "object" &&
      value !== null &&
      typeof (value as { code?: unknown }).code === "number" &&
      (value as { [httpErrorMark]?: unknown })[httpErrorMark] === true)
  );
}

/** Marks every HttpError so that {@link isHttpError} recognises errors from another copy of the module. */
const httpErrorMark: unique symbol = Symbol.for("portico.http-error");
Object.defineProperty(HttpError.prototype, httpErrorMark, { value: true });

/** 404: no route for the path. */
export function notFoundError(): HttpError<undefined> {
  return new HttpError(404, "NotFound");
}

/** 405: the path exists, but not for this method. */
export function methodNotAllowedError(allow: string): HttpError<undefined> {
  return new HttpError(405, "MethodNotAllowed", undefined, undefined, { allow });
}

/** 426: the path only exists as a websocket route. */
export function upgradeRequiredError(): HttpError<undefined> {
  return new HttpError(426, "UpgradeRequired", undefined, undefined, {
    upgrade: "websocket",
    connection: "Upgrade",
  });
}

/**
 * 413: the request body (or, with `message`, a part of it) is over its limit; the connection closes
 * (the rest is not read).
 */
export function payloadTooLargeError(
  limit: number,
  message = `Request body exceeds the limit of ${limit} bytes`,
): HttpError<undefined> {
  return new HttpError(413, "PayloadTooLarge", message, undefined, { connection: "close" });
}

/** 400 with a message: a request the framework itself refuses (bad redirect target, hostile header…). */
export function badRequestError(message: string): HttpError<undefined> {
  return new HttpError(400, "BadRequest", message);
}
