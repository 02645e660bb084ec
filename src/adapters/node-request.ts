import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { lightResponseKey } from "../context/light-response.ts";
import { standardRequestKey } from "../context/request-info.ts";
import { BODY_METHODS, standIn } from "../context/stand-in.ts";
import { bodyReaderKey } from "../params/read-body.ts";

/**
 * A stand-in for the standard `Request` of a Node request: method, url and headers are cheap; the
 * body can be read straight from the socket; the real `Request` (body stream, abort signal) is built
 * only when something asks for it. Everything else a Request has is delegated to that real one.
 */
export class NodeRequest {
  /** The method, as Node parsed it. */
  readonly method: string;
  /** The absolute URL, built from a validated Host and target. */
  readonly url: string;
  readonly #incoming: IncomingMessage;
  readonly #res: ServerResponse | undefined;
  #headers: Headers | undefined = undefined;
  #request: Request | undefined = undefined;
  #abort: AbortController | undefined = undefined;
  #bodyTaken = false;

  /** Wraps a Node request; `res` lets the abort signal follow the client going away. */
  constructor(incoming: IncomingMessage, url: string, res: ServerResponse | undefined) {
    this.#incoming = incoming;
    this.#res = res;
    this.method = incoming.method ?? "GET";
    this.url = url;
  }

  /** The headers, built on first use. */
  get headers(): Headers {
    if (this.#headers === undefined) {
      const headers = new Headers();
      const raw = this.#incoming.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      this.#headers = headers;
    }
    return this.#headers;
  }

  /** Aborts when the client goes away before the response is complete. */
  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const controller = new AbortController();
      this.#abort = controller;
      const res = this.#res;
      // Listening costs on every request, so it starts only once someone holds the signal.
      if (res !== undefined) {
        if (res.destroyed && !res.writableFinished)
          controller.abort(new Error("The client closed the connection"));
        else
          res.once("close", () => {
            if (!res.writableFinished) controller.abort(new Error("The client closed the connection"));
          });
      }
    }
    return this.#abort.signal;
  }

  /** The real `Request`, built on first use. */
  toRequest(): Request {
    if (this.#request === undefined) {
      const method = this.method;
      const init: RequestInit & { duplex?: "half" } = { method, headers: this.headers, signal: this.signal };
      if (method !== "GET" && method !== "HEAD" && !this.#bodyTaken) {
        this.#bodyTaken = true;
        init.body = Readable.toWeb(this.#incoming) as ReadableStream<Uint8Array>;
        init.duplex = "half";
      }
      this.#request = new Request(this.url, init);
    }
    return this.#request;
  }

  /** The whole body, read from the socket; `undefined` once the body went to a stream. */
  readBody(limit: number): Promise<Uint8Array | undefined> | undefined {
    if (this.#bodyTaken) return undefined;
    this.#bodyTaken = true;
    const incoming = this.#incoming;
    if (Number(incoming.headers["content-length"]) > limit) {
      incoming.resume();
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const onData = (chunk: Buffer): void => {
        total += chunk.length;
        if (total > limit) {
          incoming.off("data", onData);
          incoming.resume();
          resolve(undefined);
        } else chunks.push(chunk);
      };
      incoming.on("data", onData);
      incoming.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)));
      incoming.once("error", reject);
    });
  }
}

// Everything else a Request has is answered by the real one, so the stand-in passes for a Request.
standIn<NodeRequest>(
  NodeRequest.prototype,
  Request.prototype,
  (self) => self.toRequest(),
  [
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
  ],
  BODY_METHODS,
);
Object.defineProperty(NodeRequest.prototype, standardRequestKey, { value: NodeRequest.prototype.toRequest });
Object.defineProperty(NodeRequest.prototype, bodyReaderKey, { value: NodeRequest.prototype.readBody });
Object.defineProperty(NodeRequest.prototype, lightResponseKey, { value: true });
