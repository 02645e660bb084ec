import { appendVary } from "../app/respond.ts";
import type { Context } from "../context/context.ts";
import type { Middleware } from "../context/handler.ts";
import { pickEncoding } from "../http/accept.ts";
import { mediaTypeOf } from "../http/media-type.ts";

/** A content coding {@link compress} can apply. */
export type Encoding = "br" | "gzip" | "deflate";

/** Options of {@link compress}. */
export interface CompressOptions {
  /** The codings offered, in the server's order of preference. Default `["br", "gzip", "deflate"]`. */
  readonly encodings?: readonly Encoding[];
  /** Bodies of known size below this many bytes are sent as they are. Default 1024. */
  readonly threshold?: number;
}

// The CompressionStream format of each coding ("br" where the runtime implements it).
const FORMATS: Record<Encoding, string> = { br: "brotli", gzip: "gzip", deflate: "deflate" };
const available = new Map<Encoding, boolean>();

function runtimeHas(encoding: Encoding): boolean {
  let has = available.get(encoding);
  if (has === undefined) {
    try {
      new CompressionStream(FORMATS[encoding] as CompressionFormat);
      has = true;
    } catch {
      has = false;
    }
    available.set(encoding, has);
  }
  return has;
}

// Text formats gain from compression; images, archives and media are compressed already.
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|xml|wasm|x-www-form-urlencoded|[\w.+-]*\+(?:json|xml))$|image\/svg\+xml$)/;

/**
 * Compresses response bodies with `CompressionStream` in the coding the client prefers among those
 * offered (`br` only where the runtime has it), and adds `Vary: Accept-Encoding`. Left as they are:
 * HEAD bodies' work (the headers still say what GET would get), bodies of known size under the
 * threshold, types that do not compress (images, archives), `text/event-stream` (a compressor holds
 * events back), responses already encoded, partial (206) or marked `Cache-Control: no-transform`
 * (mark streamed responses that must reach the client chunk by chunk so). A strong ETag becomes weak:
 * the bytes changed, the meaning did not.
 *
 * Compressing a response that holds a secret next to text an attacker chose can leak the secret
 * (BREACH): leave such responses out with `no-transform`, or mount `compress` where they are not.
 *
 * @example
 * app.use(compress());
 */
export function compress(options: CompressOptions = {}): Middleware<unknown> {
  const { encodings = ["br", "gzip", "deflate"], threshold = 1024 } = options;
  for (const encoding of encodings) {
    if (!Object.hasOwn(FORMATS, encoding)) throw new TypeError(`compress(): unknown encoding ${encoding}`);
  }
  if (!Number.isSafeInteger(threshold) || threshold < 0) {
    throw new TypeError("compress(): threshold must be a whole number of bytes");
  }
  const transform = (response: Response, ctx: Context<unknown>): Response => {
    const headers = response.headers;
    if (response.body === null || response.status === 206 || headers.has("content-encoding")) return response;
    if (!COMPRESSIBLE.test(mediaTypeOf(headers.get("content-type")))) return response;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get("cache-control") ?? "")) return response;
    appendVary(headers, "Accept-Encoding");
    const length = headers.get("content-length");
    if (length !== null && Number(length) < threshold) return response;
    const offered = encodings.filter(runtimeHas);
    const encoding = pickEncoding(ctx.request.headers.get("accept-encoding"), offered) as
      | Encoding
      | undefined;
    if (encoding === undefined) return response;
    const out = new Headers(headers);
    out.set("content-encoding", encoding);
    out.delete("content-length");
    const tag = out.get("etag");
    if (tag?.startsWith('"')) out.set("etag", `W/${tag}`);
    const body =
      ctx.request.method === "HEAD"
        ? null
        : response.body.pipeThrough(new CompressionStream(FORMATS[encoding] as CompressionFormat));
    if (body === null) response.body.cancel().catch(() => {});
    const init: ResponseInit & { encodeBody?: "manual" } = {
      status: response.status,
      statusText: response.statusText,
      headers: out,
      // workerd encodes a body by its Content-Encoding unless told it is encoded already; the other
      // runtimes ignore the member.
      encodeBody: "manual",
    };
    return new Response(body, init);
  };
  return (ctx, next) => {
    ctx.response.transform(transform);
    return next();
  };
}
