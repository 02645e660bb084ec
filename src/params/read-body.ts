import type { Context } from "../context/context.ts";
import { badRequestError, isHttpError, payloadTooLargeError } from "../errors/http-error.ts";
import { bodyError, type ParamSource } from "../errors/param-errors.ts";
import { FastRequest } from "../fast-path/fast-path.ts";
import { ByteBuffer } from "../http/byte-buffer.ts";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads the request body as UTF-8 text, up to the body size limit (over it: 413, before reading
 * when `Content-Length` says so). With `preserve`, reads a copy so that the body stays readable.
 */
export function readBodyText(ctx: Context, source: ParamSource, preserve: boolean): Promise<string> {
  const limit = ctx.limits.bodySize;
  const direct = preserve ? null : readDirect(ctx, limit);
  // One hop on the fast path (the body straight from the socket), as this runs for every body.
  if (direct !== null) return direct.then((bytes) => decode(within(bytes, limit), source));
  return readStandard(ctx, limit, preserve).then((bytes) => decode(bytes, source));
}

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** The most bytes to read (over it: 413). Default: the app's `limits.bodySize`. */
  readonly limit?: number;
}

/**
 * Reads the request's whole body, bounded: past `limits.bodySize` (or `options.limit`) it answers 413
 * and stops reading. Use it in handlers that read the body themselves: `ctx.request.raw` is the
 * runtime's own request, whose body methods have no limit.
 *
 * @example
 * app.post("/upload", async (ctx) => {
 *   const bytes = await readBody(ctx, { limit: 10 * 1024 * 1024 });
 *   ctx.response.write(`${bytes.byteLength} bytes`);
 * });
 */
export function readBody(ctx: Context, options: ReadBodyOptions = {}): Promise<Uint8Array> {
  const limit = options.limit ?? ctx.limits.bodySize;
  const direct = readDirect(ctx, limit);
  return direct !== null ? direct.then((bytes) => within(bytes, limit)) : readStandard(ctx, limit, false);
}

// On the Node adapter, straight from the socket, unless the standard request already owns the body.
function readDirect(ctx: Context, limit: number): Promise<Uint8Array | undefined> | null {
  const source = ctx.request.source;
  return source instanceof FastRequest ? (source as unknown as FastRequest).readBody(limit) : null;
}

function within(bytes: Uint8Array | undefined, limit: number): Uint8Array {
  if (bytes === undefined) throw payloadTooLargeError(limit);
  return bytes;
}

async function readStandard(ctx: Context, limit: number, preserve: boolean): Promise<Uint8Array> {
  try {
    return await readWithin(ctx, limit, preserve);
  } catch (error) {
    if (isHttpError(error)) throw error;
    // The runtime could not read what the client sent (a broken chunked encoding, say): the client's
    // fault, a 400 (Node refuses such requests before the app; Deno fails the read).
    throw badRequestError("The request body could not be read: it is not valid HTTP");
  }
}

async function readWithin(ctx: Context, limit: number, preserve: boolean): Promise<Uint8Array> {
  const declared = ctx.request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw payloadTooLargeError(limit);
  const request = preserve ? ctx.request.raw.clone() : ctx.request.raw;
  // With a declared length within the limit, the runtime's own reader is the fastest, and HTTP/1.1
  // framing keeps the body to that length; without one, read the stream and count.
  if (declared !== null && /^\d+$/.test(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > limit) throw payloadTooLargeError(limit);
    return bytes;
  }
  const stream = request.body;
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const received = new ByteBuffer();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (received.length + value.byteLength > limit) {
      reader.cancel().catch(() => {});
      throw payloadTooLargeError(limit);
    }
    received.push(value);
  }
  return received.bytes();
}

function decode(bytes: Uint8Array, source: ParamSource): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw bodyError(source, "Request body is not valid UTF-8");
  }
}
