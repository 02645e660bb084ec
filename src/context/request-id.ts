import { toBase64Url } from "../http/base64.ts";

/** How requests get their ids. */
export interface RequestIdOptions {
  /** Use a well-formed incoming id instead of a new one (only behind a proxy you trust). Default `false`. */
  readonly trustIncoming?: boolean;
  /** The header read (when trusted) and always sent back. Default `X-Request-Id`. */
  readonly header?: string;
}

const WELL_FORMED = /^[A-Za-z0-9_.:=-]{1,128}$/;

/** Returns the request's id: the incoming one when trusted and well-formed, else {@link nextRequestId}. */
export function requestIdFor(headers: Headers, trustIncoming: boolean, header: string): string {
  if (trustIncoming) {
    const incoming = headers.get(header);
    if (incoming !== null && WELL_FORMED.test(incoming)) return incoming;
  }
  return nextRequestId();
}

// This process's (or isolate's) prefix: 72 random bits, made on first use (a Worker may not draw random
// values while its script loads), and the count of ids it has given.
let prefix: string | undefined;
let count = 0;

/**
 * A new request id: a random per-process prefix and a counter (`kX3b9Qz_Lm0a-1f`): unique across
 * processes and restarts (two prefixes meet with odds of 2⁻⁷² per pair), at least 14 characters of
 * `[A-Za-z0-9_-]`, which `requestId.trustIncoming` accepts from another Portico service. Not
 * unpredictable: ids count requests, so never use one as a secret (the CSP nonce and sessions draw
 * their own randomness).
 */
export function nextRequestId(): string {
  prefix ??= `${toBase64Url(crypto.getRandomValues(new Uint8Array(9)))}-`;
  return prefix + (count++).toString(36);
}
