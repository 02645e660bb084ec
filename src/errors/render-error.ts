import { pickMediaType } from "../http/accept.ts";
import { html, unescaped } from "../http/html.ts";
import { toJSON } from "../http/json.ts";
import { ERROR_NAME_HEADER, type ErrorEnvelope, toWords } from "../wire/contract.ts";
import type { ErrorBody } from "./error-body.ts";
import { HttpError, isHttpError } from "./http-error.ts";
import { ParamsError } from "./param-errors.ts";

/** An error turned into what a response needs. */
export interface RenderedError {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
  readonly headers: Record<string, string> | undefined;
}

// The formats an error is written in: text, Portico's JSON envelope (or the app's own body), an HTML
// page, and RFC 9457 Problem Details.
const MEDIA_TYPES = ["text/plain", "application/json", "text/html", "application/problem+json"] as const;
const CONTENT_TYPES = [
  "text/plain; charset=utf-8",
  "application/json",
  "text/html; charset=utf-8",
  "application/problem+json",
] as const;
// Each preferred format's order: the first is sent when `Accept` names none of them, or ranks them equal.
const ORDERS = { text: [0, 1, 2, 3], json: [1, 0, 2, 3], problem: [3, 1, 0, 2] } as const;
const ORDERED = {
  text: ORDERS.text.map((i) => MEDIA_TYPES[i]),
  json: ORDERS.json.map((i) => MEDIA_TYPES[i]),
  problem: ORDERS.problem.map((i) => MEDIA_TYPES[i]),
};

/** The media types an error can be sent in (for the OpenAPI document), and their content types. */
export const ERROR_MEDIA_TYPES: readonly string[] = MEDIA_TYPES;

/**
 * What an app sends an error as when the client's `Accept` names none of the formats
 * (`createApp({ errors })`): text, JSON, or Problem Details (`application/problem+json`).
 */
export type ErrorFormat = "text" | "json" | "problem";

/** How an app renders its errors, resolved from `createApp({ errors })`. */
export interface ErrorRendering {
  /** The format when `Accept` names none. */
  readonly format: ErrorFormat;
  /** The app's own JSON body, instead of the envelope. */
  readonly body: ErrorBody | undefined;
  /** The status of parameter errors (400 unless the app says otherwise). */
  readonly paramsStatus: number;
}

/** Portico's defaults: text, the envelope, 400 for parameter errors. */
export const DEFAULT_RENDERING: ErrorRendering = { format: "text", body: undefined, paramsStatus: 400 };

/** True when an error's code can be sent as an HTTP error status. */
export function isErrorStatus(code: number): boolean {
  return Number.isInteger(code) && code >= 400 && code <= 599;
}

/**
 * Renders an error for the client by its `Accept` header (text by default, or JSON when `preferred`; JSON,
 * or HTML).
 * An {@link HttpError} with an error status shows its code, name, message and payload; anything else
 * is a 500 that shows nothing, unless `verbose` (development) adds its message and stack.
 */
export function renderError(
  error: unknown,
  accept: string | null,
  requestId: string,
  verbose: boolean,
  nonce?: string,
  rendering: ErrorRendering = DEFAULT_RENDERING,
): RenderedError {
  const known = isHttpError(error) && isErrorStatus(error.code);
  const shown: HttpError = known ? error : internalError(error, verbose);
  const stack = !known && verbose && error instanceof Error ? error.stack : undefined;
  const code = shown instanceof ParamsError ? rendering.paramsStatus : shown.code;
  const format = ORDERS[rendering.format][Math.max(pickMediaType(accept, ORDERED[rendering.format]), 0)]!;
  const title = `${code} ${toWords(shown.name)}`;
  let headers = shown.headers;
  let body: string;
  if (rendering.body !== undefined) {
    // The typed client reads which declared error it was here, since the app's body may not say.
    headers = { ...headers, [ERROR_NAME_HEADER]: shown.name };
  }
  if (format === 3) {
    body = toJSON(problem(shown, code, requestId, stack));
  } else if (format === 1 && rendering.body !== undefined) {
    const issues = shown instanceof ParamsError ? shown.payload.issues : [];
    body = toJSON(
      rendering.body.render({
        name: shown.name,
        title: toWords(shown.name),
        message: shown.message ?? null,
        code,
        payload: shown.payload ?? null,
        issues,
      }),
    );
  } else if (format === 1) {
    const envelope: ErrorEnvelope["error"] & { stack?: string } = {
      name: toWords(shown.name),
      message: shown.message ?? null,
      code,
      payload: shown.payload ?? null,
    };
    if (stack) envelope.stack = stack;
    body = toJSON({ error: envelope } satisfies ErrorEnvelope);
  } else if (format === 2) {
    body = htmlPage(title, shown.message, requestId, stack, nonce);
  } else {
    body = shown.message === undefined ? title : `${title} — ${shown.message}`;
    if (stack) body += `\n\n${stack}`;
  }
  return { status: code, body, contentType: CONTENT_TYPES[format]!, headers };
}

// RFC 9457: the standard members, the declared name, and the payload's fields as extension members
// (never over a standard member).
function problem(error: HttpError, status: number, requestId: string, stack: string | undefined): object {
  const details: Record<string, unknown> = {};
  const payload = error.payload;
  if (payload !== null && typeof payload === "object" && !Array.isArray(payload))
    for (const [key, value] of Object.entries(payload)) if (!PROBLEM_MEMBERS.has(key)) details[key] = value;
  return {
    type: (error as { problemType?: string }).problemType ?? "about:blank",
    title: toWords(error.name),
    status,
    ...(error.message === undefined ? {} : { detail: error.message }),
    instance: requestId,
    name: error.name,
    ...details,
    ...(stack === undefined ? {} : { stack }),
  };
}

/** The members RFC 9457 defines, and the declared name Portico adds: a payload field never replaces one. */
export const PROBLEM_MEMBERS: ReadonlySet<string> = new Set([
  "type",
  "title",
  "status",
  "detail",
  "instance",
  "name",
]);

function internalError(error: unknown, verbose: boolean): HttpError {
  const message = verbose ? errorSummary(error) : undefined;
  return new HttpError(500, "InternalServerError", message);
}

function errorSummary(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return `Non-error thrown: ${String(error)}`;
  } catch {
    return "Non-error thrown";
  }
}

function htmlPage(
  title: string,
  message: string | undefined,
  requestId: string,
  stack: string | undefined,
  nonce: string | undefined,
): string {
  // The style carries the request's CSP nonce when a policy made one (secureHeaders with NONCE in
  // styleSrc): a strict policy then lets it through; without one, the page reads fine unstyled.
  const style =
    nonce === undefined ? html`<style>${STYLE}</style>` : html`<style nonce="${nonce}">${STYLE}</style>`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${style}</head><body><h1>${title}</h1>${message === undefined ? "" : html`<p>${message}</p>`}${stack === undefined ? "" : html`<pre>${stack}</pre>`}<p><small>Request id: <code>${requestId}</code></small></p></body></html>`
    .value;
}

const STYLE = unescaped(
  "body{font:16px/1.5 system-ui,sans-serif;margin:4rem auto;max-width:40rem;padding:0 1rem}small{color:#666}pre{overflow:auto}",
);
