import type { Context } from "../context/context.ts";
import { Later, later } from "../context/later.ts";
import { badRequestError, isHttpError, payloadTooLargeError } from "../errors/http-error.ts";
import { bodyError, type ParamSource } from "../errors/param-errors.ts";
import { bodyOf } from "../fast-path/fast-path.ts";
import { ByteBuffer } from "../http/byte-buffer.ts";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads the request body as UTF-8 text, up to the body size limit (over it: 413, before reading
 * when `Content-Length` says so). With `preserve`, reads a copy so that the body stays readable.
 */
export function readBodyText(ctx: Context, source: ParamSource, preserve: boolean): Later<string> {
  const limit = ctx.limits.bodySize;
  const direct = preserve ? null : readDirect(ctx, limit);
  // The decoding is the first continuation of the body's one hop (context/later.ts): the parse,
  // validation, `call` and response follow in the same reaction.
  if (direct !== null) return later(direct, (bytes) => decode(within(bytes, limit), source));
  return new Later(readStandard(ctx, limit, preserve, (bytes) => decode(bytes, source)));
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
  return direct !== null
    ? direct.then((bytes) => within(bytes, limit))
    : readStandard(ctx, limit, false, (bytes) => bytes);
}

// On the Node adapter, straight from the socket, unless the standard request already owns the body.
function readDirect(ctx: Context, limit: number): Promise<Uint8Array | undefined> | null {
  return bodyOf(ctx.request.source, limit);
}

function within(bytes: Uint8Array | undefined, limit: number): Uint8Array {
  if (bytes === undefined) throw payloadTooLargeError(limit);
  return bytes;
}

// The runtime's reader, bounded, handing the bytes to `finish`. With a declared length within the
// limit the runtime's own `arrayBuffer()` is the fastest (HTTP/1.1 framing keeps the body to that
// length), and `finish` runs in its one `then`: the JSON body path took three promise hops here
// before (two async frames and a `then`).
function readStandard<T>(
  ctx: Context,
  limit: number,
  preserve: boolean,
  finish: (bytes: Uint8Array) => T,
): Promise<T> {
  try {
    const declared = ctx.request.headers.get("content-length");
    if (declared !== null && Number(declared) > limit) throw payloadTooLargeError(limit);
    const request = preserve ? ctx.request.raw.clone() : ctx.request.raw;
    if (declared !== null && /^\d+$/.test(declared)) {
      return request.arrayBuffer().then((buffer) => {
        if (buffer.byteLength > limit) throw payloadTooLargeError(limit);
        return finish(new Uint8Array(buffer));
      }, failRead);
    }
    return readStream(request.body, limit).then(finish, failRead);
  } catch (error) {
    return Promise.reject(readFailure(error));
  }
}

// The runtime could not read what the client sent (a broken chunked encoding, say): the client's
// fault, a 400 (Node refuses such requests before the app; Deno fails the read).
function readFailure(error: unknown): unknown {
  return isHttpError(error)
    ? error
    : badRequestError("The request body could not be read: it is not valid HTTP");
}

function failRead(error: unknown): never {
  throw readFailure(error);
}

// Without a declared length: the stream, counted as it comes.
async function readStream(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
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
