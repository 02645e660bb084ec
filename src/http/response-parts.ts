// A response as Portico builds it: a status, headers and a body, kept as plain parts until the runtime
// writes them. Only the runtime's side turns them into what it writes: the Node adapter writes them to its
// `ServerResponse` (`writeHead(status, flat)`), and `toResponse` below makes the `Response` that Bun,
// Deno, workerd and `app.fetch` callers get, in one place. A `Response` is built in the core only when
// user code asks for one (a transform of the `Response` form).
import { ResponseHeaders } from "./response-headers.ts";

/**
 * A response as plain parts: what a parts transform (`ctx.response.transform({ parts })`) reads and
 * rewrites, and what a runtime writes. A body of known bytes is a string or bytes; a stream is sent as
 * it comes; a `Blob` as its bytes.
 */
export interface ResponseParts {
  /** The status code. */
  status: number;
  /** The status text, where a returned `Response` gave one (HTTP/1.1 only; runtimes may ignore it). */
  statusText?: string;
  /** The headers (a value HTTP cannot carry is refused as it is set). */
  headers: Headers;
  /** The body, or `null`. */
  body: string | Uint8Array | ReadableStream<Uint8Array> | Blob | null;
  /**
   * True when the body is already in its `Content-Encoding` (what `compress()` makes): a runtime that
   * would encode it by that header itself (workerd) sends it as it is.
   */
  encoded?: boolean;
}

/**
 * The `Response` that stands for a handshake the runtime answered itself (status 101): nothing reads
 * more of it than its status, and `new Response()` refuses a 101.
 */
const SWITCHED: Response = Object.create(Response.prototype, { status: { value: 101 } }) as Response;
// The handshake answers a runtime made for the app to return (Deno's, workerd's): passed on as they are.
const handshakes = new WeakMap<ResponseParts, Response>();

/**
 * The standard `Response` for parts. Bun and Deno fill a new Response's headers from a record in its
 * init far more slowly than they set them on the Response once made (a body and two headers: Deno 1,965
 * ns against 442, Bun 416 against 301, mitata): Portico's own headers are set after, replacing the type
 * the constructor gives a string body. A runtime's own `Headers` go through the init (Deno sorts and
 * combines a `Headers` on every iteration, which the init does once). A body marked `encoded` is sent
 * as it is (workerd would otherwise encode it again by its `Content-Encoding`).
 */
export function toResponse(parts: ResponseParts): Response {
  const { status, headers, body } = parts;
  if (status === 101) return handshakes.get(parts) ?? SWITCHED;
  const own = headers instanceof ResponseHeaders;
  const encoded = parts.encoded === true;
  let response: Response;
  if (own && status === 200 && parts.statusText === undefined && !encoded) {
    response = new Response(body as BodyInit | null);
  } else {
    const init: ResponseInit & { encodeBody?: "manual" } = { status };
    if (parts.statusText !== undefined) init.statusText = parts.statusText;
    if (encoded) init.encodeBody = "manual";
    if (!own) init.headers = headers;
    response = new Response(body as BodyInit | null, init);
  }
  if (own) headers.copyTo(response.headers);
  return response;
}

/**
 * The parts of a `Response` (its own headers and body stream; nothing is copied). Those of a handshake
 * answer (101) give back that same `Response`.
 */
export function partsOf(response: Response): ResponseParts {
  const parts: ResponseParts = { status: response.status, headers: response.headers, body: response.body };
  if (response.statusText !== "") parts.statusText = response.statusText;
  if (response.status === 101) handshakes.set(parts, response);
  return parts;
}
