/** How requests get their ids. */
export interface RequestIdOptions {
  /** Use a well-formed incoming id instead of a new one (only behind a proxy you trust). Default `false`. */
  readonly trustIncoming?: boolean;
  /** The header read (when trusted) and always sent back. Default `X-Request-Id`. */
  readonly header?: string;
}

const WELL_FORMED = /^[A-Za-z0-9_.:=-]{1,128}$/;

/** Returns the request's id: the incoming one when trusted and well-formed, else a random UUID v4. */
export function requestIdFor(headers: Headers, trustIncoming: boolean, header: string): string {
  if (trustIncoming) {
    const incoming = headers.get(header);
    if (incoming !== null && WELL_FORMED.test(incoming)) return incoming;
  }
  return crypto.randomUUID();
}
