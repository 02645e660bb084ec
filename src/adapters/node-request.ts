import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { standardRequestKey } from "../mod.ts";

/**
 * A stand-in for the standard `Request` of a Node request: method, url and headers are cheap, and
 * the real `Request` (with the body stream and the abort signal) is built only when something asks
 * for it. Portico reads it through `standardRequestKey`; everything else is delegated.
 */
export class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly #incoming: IncomingMessage;
  #headers: Headers | undefined = undefined;
  #request: Request | undefined = undefined;
  #abort: AbortController | undefined = undefined;
  #aborted = false;

  constructor(incoming: IncomingMessage, url: string) {
    this.#incoming = incoming;
    this.method = incoming.method ?? "GET";
    this.url = url;
  }

  get headers(): Headers {
    if (this.#headers === undefined) {
      const headers = new Headers();
      const raw = this.#incoming.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      this.#headers = headers;
    }
    return this.#headers;
  }

  /** The abort signal: aborts when the client goes away before the response is complete. */
  get signal(): AbortSignal {
    return this.#controller().signal;
  }

  /** Called by the adapter when the client disconnected early. */
  abort(): void {
    this.#aborted = true;
    this.#abort?.abort(new Error("The client closed the connection"));
  }

  /** The real `Request`, built on first use. */
  toRequest(): Request {
    if (this.#request === undefined) {
      const method = this.method;
      const hasBody = method !== "GET" && method !== "HEAD";
      const init: RequestInit & { duplex?: "half" } = { method, headers: this.headers, signal: this.signal };
      if (hasBody) {
        init.body = Readable.toWeb(this.#incoming) as ReadableStream<Uint8Array>;
        init.duplex = "half";
      }
      this.#request = new Request(this.url, init);
    }
    return this.#request;
  }

  #controller(): AbortController {
    if (this.#abort === undefined) {
      this.#abort = new AbortController();
      if (this.#aborted) this.#abort.abort(new Error("The client closed the connection"));
    }
    return this.#abort;
  }
}

// Everything else a Request has is answered by the real one, so the stand-in passes for a Request.
for (const name of [
  "body",
  "bodyUsed",
  "cache",
  "credentials",
  "destination",
  "integrity",
  "keepalive",
  "mode",
  "redirect",
  "referrer",
  "referrerPolicy",
  "duplex",
]) {
  Object.defineProperty(NodeRequest.prototype, name, {
    get(this: NodeRequest) {
      return (this.toRequest() as unknown as Record<string, unknown>)[name];
    },
  });
}
for (const name of ["arrayBuffer", "blob", "bytes", "formData", "json", "text", "clone"]) {
  Object.defineProperty(NodeRequest.prototype, name, {
    value(this: NodeRequest) {
      const request = this.toRequest() as unknown as Record<string, () => unknown>;
      return request[name]!.call(request);
    },
  });
}
Object.defineProperty(NodeRequest.prototype, standardRequestKey, { value: NodeRequest.prototype.toRequest });
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);
