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
  return randomUUID();
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
const POOL_IDS = 128;
const pool = new Uint8Array(16 * POOL_IDS);
let offset = pool.length;

/**
 * A random UUID v4, like `crypto.randomUUID()`, from a pool of random bytes refilled every 128 ids:
 * one call into the runtime's CSPRNG per 128 requests instead of one per request (which is costly
 * on some runtimes).
 */
export function randomUUID(): string {
  if (offset === pool.length) {
    crypto.getRandomValues(pool);
    offset = 0;
  }
  const b = pool;
  const i = offset;
  offset += 16;
  return (
    HEX[b[i]!]! +
    HEX[b[i + 1]!]! +
    HEX[b[i + 2]!]! +
    HEX[b[i + 3]!]! +
    "-" +
    HEX[b[i + 4]!]! +
    HEX[b[i + 5]!]! +
    "-" +
    HEX[(b[i + 6]! & 0x0f) | 0x40]! +
    HEX[b[i + 7]!]! +
    "-" +
    HEX[(b[i + 8]! & 0x3f) | 0x80]! +
    HEX[b[i + 9]!]! +
    "-" +
    HEX[b[i + 10]!]! +
    HEX[b[i + 11]!]! +
    HEX[b[i + 12]!]! +
    HEX[b[i + 13]!]! +
    HEX[b[i + 14]!]! +
    HEX[b[i + 15]!]!
  );
}
