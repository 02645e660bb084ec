/** Bounds on what a request may make the server do. Every one has a safe default (see {@link defaultLimits}). */
export interface Limits {
  /** Largest request body read for form/JSON params, in bytes (over it: 413). */
  readonly bodySize: number;
  /** Deepest query/form nesting, `a[b][c]` being depth 3 (over it: 400). */
  readonly paramDepth: number;
  /** Most query/form parameters in one source (over it: 400). */
  readonly paramCount: number;
  /** Largest array index in `a[7]=` (over it: 400). */
  readonly arrayIndex: number;
  /** Deepest JSON body nesting (over it: 400). */
  readonly jsonDepth: number;
  /** Longest path parameter value, in characters (over it: 400). */
  readonly pathParamLength: number;
  /** Largest websocket message, in bytes (over it: the socket closes with 1009). */
  readonly wsMessageSize: number;
  /** Most bytes queued for a websocket client that does not read (over it: close 1008). */
  readonly wsBufferedAmount: number;
  /** Most websocket messages whose asynchronous handler is still running (over it: close 1008). */
  readonly wsPendingMessages: number;
  /** Most files in one multipart form (over it: 400). */
  readonly multipartFiles: number;
  /** Largest text field of a multipart form, in bytes (over it: 413). */
  readonly multipartFieldSize: number;
  /** Largest header block of one multipart part, in bytes (over it: 400). */
  readonly multipartHeaderSize: number;
  /** Most header lines in one multipart part (over it: 400). */
  readonly multipartHeaderLines: number;
}

/**
 * The safe defaults: 1 MiB bodies, depth 5, 1000 params, index 100, JSON depth 64, 1000-char path
 * params; websockets: 1 MiB messages, 4 MiB queued for a slow client, 256 messages in handlers;
 * multipart forms: 10 files, 64 KiB text fields, 8 KiB and 16 header lines per part.
 */
export const defaultLimits: Limits = Object.freeze({
  bodySize: 1024 * 1024,
  paramDepth: 5,
  paramCount: 1000,
  arrayIndex: 100,
  jsonDepth: 64,
  pathParamLength: 1000,
  wsMessageSize: 1024 * 1024,
  wsBufferedAmount: 4 * 1024 * 1024,
  wsPendingMessages: 256,
  multipartFiles: 10,
  multipartFieldSize: 64 * 1024,
  multipartHeaderSize: 8 * 1024,
  multipartHeaderLines: 16,
});

/** Fills the limits the user left out with the defaults, and checks the ones given. */
export function resolveLimits(overrides: Partial<Limits> | undefined): Limits {
  if (!overrides) return defaultLimits;
  const limits = { ...defaultLimits, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`limits.${name} must be a positive integer, got ${String(value)}`);
    }
  }
  return Object.freeze(limits);
}
