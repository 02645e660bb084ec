import { ResponseHeaders } from "../http/response-headers.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import type { View } from "../view/define-view.ts";

/** What a response body may be set to. */
export type ResponseBody =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | Blob
  | URLSearchParams
  | FormData
  | null;

/**
 * A response transform, for the context type `TContext` (`Context`: see `ResponseTransform` in
 * `context.ts`; the state does not know the context, so that neither file imports the other).
 */
export type TransformOf<TContext> = (response: Response, ctx: TContext) => Response | Promise<Response>;

/**
 * A response transform of the parts form, for the context type `TContext`: it reads and rewrites the
 * response as plain parts (status, headers, body), so that no `Response` is built for it — what `etag()`
 * and `compress()` use. A body of known bytes is a `Uint8Array` there, its length in `Content-Length`.
 */
export interface PartsTransformOf<TContext> {
  /** Returns the parts to send (the same object, changed, or new ones). */
  readonly parts: (parts: ResponseParts, ctx: TContext) => ResponseParts | Promise<ResponseParts>;
}

const encoder = new TextEncoder();

/** The response being built: status, headers, view and body. Turned into a `Response` after the handler. */
export class ResponseState<TContext = unknown> {
  /** The status code (default 200). */
  status = 200;
  /** The view to render, if any. The router sets it only if it is still unset. */
  view: View | undefined = undefined;
  /** A standard `Response` to send as is (a handler or middleware that returns one sets it). */
  raw: Response | undefined = undefined;
  #headers: ResponseHeaders | undefined = undefined;
  #body: ResponseBody = null;
  #transforms: (TransformOf<TContext> | PartsTransformOf<TContext>)[] | undefined = undefined;

  /** The response headers (created on first use; a value HTTP cannot carry is refused as it is set). */
  get headers(): Headers {
    this.#headers ??= new ResponseHeaders();
    return this.#headers;
  }

  /** True once the headers were touched. Lets the response skip building an empty `Headers`. */
  get hasHeaders(): boolean {
    return this.#headers !== undefined;
  }

  /**
   * Rewrites the response once it is built, after every handler and middleware ran: the last one
   * added (the innermost middleware's) runs first, as `await next()` unwinds. A body whose bytes are
   * known then carries `Content-Length`; a stream does not. An error a transform throws is rescued
   * like a handler's, and the error response is sent untransformed.
   *
   * A function gets and returns a standard `Response`; an object with a `parts` function gets and returns
   * the response as plain parts (status, headers, body), which costs no `Response` (a body of known bytes
   * is a `Uint8Array` there).
   *
   * @example
   * ctx.response.transform((response) => { response.headers.set("x-served-by", "a"); return response; });
   * ctx.response.transform({ parts: (parts) => { parts.headers.set("x-served-by", "a"); return parts; } });
   */
  transform(fn: TransformOf<TContext> | PartsTransformOf<TContext>): void {
    this.#transforms ??= [];
    this.#transforms.push(fn);
  }

  /** The transforms added, innermost last; `undefined` when none was. */
  get transforms(): readonly (TransformOf<TContext> | PartsTransformOf<TContext>)[] | undefined {
    return this.#transforms;
  }

  /** The body; setting it replaces whatever was written. */
  get body(): ResponseBody {
    return this.#body;
  }

  set body(value: ResponseBody) {
    this.#body = value;
  }

  /**
   * Appends a chunk to the body.
   *
   * @example
   * ctx.response.write("Hello, ");
   * ctx.response.write("world");
   */
  write(chunk: string | Uint8Array): void {
    const body = this.#body;
    if (body === null || body === "") this.#body = chunk;
    else if (typeof body === "string" && typeof chunk === "string") this.#body = body + chunk;
    else if ((typeof body === "string" || body instanceof Uint8Array) && chunk !== "") {
      const head = typeof body === "string" ? encoder.encode(body) : body;
      const tail = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
      const joined = new Uint8Array(head.length + tail.length);
      joined.set(head);
      joined.set(tail, head.length);
      this.#body = joined;
    } else if (chunk !== "") {
      throw new TypeError(
        "response.write() cannot append to a body that is a stream, blob or form; set response.body instead",
      );
    }
  }
}
