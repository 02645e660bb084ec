import { PARAM_ERROR_NAMES, type ParamSource } from "../wire/contract.ts";
import { HttpError } from "./http-error.ts";

/** One problem with one parameter. */
export interface ParamIssue {
  /** Where the parameter is: source keys and array indices, e.g. `["user", "emails", "1"]`. */
  readonly path: readonly string[];
  /** The whole sentence, e.g. `Query parameter "limit" cannot be cast from "abc" to Int32`. */
  readonly message: string;
}

/** The payload of a parameter error: the first issue's path, and every issue. */
export interface ParamErrorPayload {
  /** The first issue's path. */
  readonly path: readonly string[];
  /** Every issue found, up to 20 (validation stops soon after). */
  readonly issues: readonly ParamIssue[];
  /** Present, and true, when there were more issues than those reported. */
  readonly truncated?: true;
}

export type { ParamSource } from "../wire/contract.ts";

/** A parameter source's error: 400 over HTTP, 4000 in channels. Its message is the first issue's. */
export class ParamsError extends HttpError<ParamErrorPayload> {
  /** Which source failed. */
  readonly source: ParamSource;

  /** Makes the error of a source; the message is the first issue's. */
  constructor(source: ParamSource, name: string, issues: readonly ParamIssue[], truncated = false) {
    const first = issues[0] ?? { path: [], message: "Invalid parameters" };
    const payload: ParamErrorPayload = truncated
      ? { path: first.path, issues, truncated: true }
      : { path: first.path, issues };
    super(400, name, first.message, payload);
    this.source = source;
  }
}

/** A path parameter is invalid or cannot be cast. */
export class PathParamsError extends ParamsError {
  /** Makes the error from its issues (the first gives the message). */
  constructor(issues: readonly ParamIssue[], truncated = false) {
    super("path", PARAM_ERROR_NAMES.path, issues, truncated);
  }
}

/** A query parameter is invalid, cannot be cast, or is missing. */
export class QueryParamsError extends ParamsError {
  /** Makes the error from its issues (the first gives the message). */
  constructor(issues: readonly ParamIssue[], truncated = false) {
    super("query", PARAM_ERROR_NAMES.query, issues, truncated);
  }
}

/** A declared request header is invalid, cannot be cast, or is missing (its value is never echoed). */
export class HeaderParamsError extends ParamsError {
  /** Makes the error from its issues (the first gives the message). */
  constructor(issues: readonly ParamIssue[], truncated = false) {
    super("headers", PARAM_ERROR_NAMES.headers, issues, truncated);
  }
}

/** A declared cookie is invalid, cannot be cast, or is missing (its value is never echoed). */
export class CookieParamsError extends ParamsError {
  /** Makes the error from its issues (the first gives the message). */
  constructor(issues: readonly ParamIssue[], truncated = false) {
    super("cookies", PARAM_ERROR_NAMES.cookies, issues, truncated);
  }
}

/** A form body is invalid, or missing when required. */
export class FormBodyError extends ParamsError {
  /** Makes the error from its issues (the first gives the message). */
  constructor(issues: readonly ParamIssue[], truncated = false) {
    super("form", PARAM_ERROR_NAMES.form, issues, truncated);
  }
}

/** A JSON body is malformed, invalid, or missing when required. */
export class JSONBodyError extends ParamsError {
  /** Makes the error from its issues (the first gives the message). */
  constructor(issues: readonly ParamIssue[], truncated = false) {
    super("json", PARAM_ERROR_NAMES.json, issues, truncated);
  }
}

const ERRORS: Record<ParamSource, new (issues: readonly ParamIssue[], truncated?: boolean) => ParamsError> = {
  path: PathParamsError,
  query: QueryParamsError,
  headers: HeaderParamsError,
  cookies: CookieParamsError,
  form: FormBodyError,
  json: JSONBodyError,
};

const LABELS: Record<ParamSource, string> = {
  path: "Path parameter",
  query: "Query parameter",
  headers: "Header",
  cookies: "Cookie",
  form: "Form parameter",
  json: "JSON parameter",
};

/** Builds a source's error from issues. */
export function paramsError(
  source: ParamSource,
  issues: readonly ParamIssue[],
  truncated = false,
): ParamsError {
  return new ERRORS[source](issues, truncated);
}

/** Builds the sentence for one parameter: `Query parameter "user[age]" is missing`, `Header "x-api-key" is missing`. */
export function paramMessage(source: ParamSource, path: readonly string[], text: string): string {
  return `${LABELS[source]} "${renderPath(source, path)}" ${text}`;
}

/** Renders a parameter path as the client wrote it: `user[age]` in query/form, `user.email` in JSON. */
function renderPath(source: ParamSource, path: readonly string[]): string {
  if (path.length === 0) return "";
  if (source === "json") {
    let out = path[0]!;
    for (let i = 1; i < path.length; i++) out += /^\d+$/.test(path[i]!) ? `[${path[i]}]` : `.${path[i]}`;
    return out;
  }
  return (
    path[0]! +
    path
      .slice(1)
      .map((key) => `[${key}]`)
      .join("")
  );
}

/** A whole-source error with no parameter path (`Missing request body`, malformed JSON…). */
export function bodyError(source: ParamSource, message: string): ParamsError {
  return paramsError(source, [{ path: [], message }]);
}
