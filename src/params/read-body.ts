import type { Context } from "../context/context.ts";
import { payloadTooLargeError } from "../errors/http-error.ts";
import { bodyError, type ParamSource } from "../errors/param-errors.ts";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A request-like object may offer its whole body under this symbol: `(limit) => Promise<bytes>`,
 * resolving to `undefined` when the body is over `limit` bytes, or returning `undefined` at once when
 * it can no longer (the standard `Request` was built and owns the stream). The Node adapter does, to
 * skip web streams.
 */
export const bodyReaderKey: unique symbol = Symbol.for("portico.body-reader");

type BodyReader = (limit: number) => Promise<Uint8Array | undefined> | undefined;

/**
 * Reads the request body as UTF-8 text, up to the body size limit (over it: 413, before reading
 * when `Content-Length` says so). With `preserve`, reads a copy so that the body stays readable.
 */
export async function readBodyText(ctx: Context, source: ParamSource, preserve: boolean): Promise<string> {
  const limit = ctx.limits.bodySize;
  const reader = preserve
    ? undefined
    : (ctx.request.source as { [bodyReaderKey]?: BodyReader })[bodyReaderKey];
  const pending = reader?.call(ctx.request.source, limit);
  if (pending !== undefined) {
    const bytes = await pending;
    if (bytes === undefined) throw payloadTooLargeError(limit);
    return decode(bytes, source);
  }
  const declared = ctx.request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw payloadTooLargeError(limit);
  const request = preserve ? ctx.request.raw.clone() : ctx.request.raw;
  // With a declared length within the limit, the runtime's own reader is the fastest, and HTTP/1.1
  // framing keeps the body to that length; without one, read the stream and count.
  if (declared !== null && /^\d+$/.test(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > limit) throw payloadTooLargeError(limit);
    return decode(bytes, source);
  }
  const stream = request.body;
  if (stream === null) return "";
  const streamReader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await streamReader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      streamReader.cancel().catch(() => {});
      throw payloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  return decode(chunks.length === 1 ? chunks[0]! : concat(chunks, total), source);
}

function decode(bytes: Uint8Array, source: ParamSource): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw bodyError(source, "Request body is not valid UTF-8");
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
