import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { FastRequest, type OriginForm } from "../fast-path/fast-path.ts";
import { ByteBuffer } from "../http/byte-buffer.ts";
import type { Runtime, UpgradeShim } from "../runtime/runtime.ts";
import { builtinAsyncStorage } from "./async-storage.ts";
import { nodeFiles } from "./files.ts";
import { nodeCompressors } from "./node-compress.ts";

/**
 * The request Portico gets from a Node `IncomingMessage`: method, URL and Host are read without
 * building anything; headers, the abort signal and the web body stream only when asked for; the body
 * can be read straight from the socket. Portico's target check validates the URL built here.
 */
export function toRequest(
  incoming: IncomingMessage,
  res: ServerResponse | undefined,
  listening: string,
  shim?: UpgradeShim,
): Request {
  return new IncomingRequest(incoming, res, listening, shim) as unknown as Request;
}

/** A request whose websocket is open lets go of what only the upgrade needed. */
export function releaseUpgraded(request: Request): void {
  if (request instanceof IncomingRequest) request.release();
}

/** What the Node adapter can do for the requests it made (`toRequest`). */
export const nodeRuntime: Runtime = {
  name: "Node",
  peer: (request) => (request instanceof IncomingRequest ? request.peer : undefined),
  upgrade: (request) => (request instanceof IncomingRequest ? request.shim : undefined),
  keepOpen: () => {},
  compressor: (coding) => nodeCompressors[coding],
  resumed: () => false,
  files: nodeFiles,
  asyncStorage: builtinAsyncStorage,
};

class IncomingRequest extends FastRequest {
  // A getter, as on a standard `Request` (read-only, not an own enumerable field).
  readonly #method: string;
  /**
   * The peer's address, read as the request arrives: once Node destroys the socket (a body over the
   * limit, a client gone) it is lost. Node keeps it per connection, so requests after the first on a
   * kept-alive connection read a cached value.
   */
  readonly peer: string | undefined;
  /** How the server accepts this request's websocket upgrade (only on an `upgrade` event). */
  shim: UpgradeShim | undefined;
  // Let go once a websocket is open (`released`): the socket's context keeps this request for its life.
  #incoming: IncomingMessage | undefined;
  // Node's own records, kept as they are: Host is found in the raw list, and the scheme on the socket,
  // only when the core asks; the URL and the headers are made only if read.
  readonly #rawHeaders: string[];
  readonly #target: string;
  readonly #res: ServerResponse | undefined;
  readonly #listening: string;

  constructor(
    incoming: IncomingMessage,
    res: ServerResponse | undefined,
    listening: string,
    shim: UpgradeShim | undefined,
  ) {
    super();
    this.#method = incoming.method ?? "GET";
    this.peer = incoming.socket.remoteAddress;
    this.shim = shim;
    this.#incoming = incoming;
    this.#rawHeaders = incoming.rawHeaders;
    this.#target = incoming.url ?? "/";
    this.#res = res;
    this.#listening = listening;
  }

  override get method(): string {
    return this.#method;
  }

  override host(): string | null {
    return rawHeader(this.#rawHeaders, "host");
  }

  protected override makeUrl(): string {
    return urlOf(this.#scheme(), this.host() ?? this.#listening, this.#target);
  }

  override originForm(): OriginForm | undefined {
    return this.#target.charCodeAt(0) === 47 /* / */
      ? { scheme: this.#scheme(), target: this.#target }
      : undefined;
  }

  // The connection's scheme (a TLS socket is `encrypted`), asked before `release()` (which makes the URL).
  #scheme(): "http" | "https" {
    return (this.#incoming?.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http";
  }

  /** The websocket is open: keep the headers, not Node's message (nor the upgrade's closure). */
  release(): void {
    void this.url; // made while the socket still says its scheme
    this.#incoming = undefined;
    this.shim = undefined;
  }

  protected override readHeader(name: string): string | null {
    return rawHeader(this.#rawHeaders, name);
  }

  protected readHeaders(): Headers {
    const headers = new Headers();
    const raw = this.#rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 6 && sameName(name, "cookie")) continue;
      headers.append(name, raw[i + 1]!);
    }
    const cookie = rawHeader(raw, "cookie");
    if (cookie !== null) headers.set("cookie", cookie);
    return headers;
  }

  protected abortSignal(): AbortSignal {
    const controller = new AbortController();
    const res = this.#res;
    // Listening costs on every request, so it starts only once someone holds the signal.
    if (res !== undefined) {
      const abort = (): void => controller.abort(new Error("The client closed the connection"));
      if (res.destroyed && !res.writableFinished) abort();
      else
        res.once("close", () => {
          if (!res.writableFinished) abort();
        });
    }
    return controller.signal;
  }

  protected bodyStream(): ReadableStream<Uint8Array> | null {
    const incoming = this.#incoming;
    return incoming === undefined ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  }

  protected readAll(limit: number): Promise<Uint8Array | undefined> {
    const incoming = this.#incoming;
    if (incoming === undefined) return Promise.resolve(new Uint8Array(0));
    // Over the limit, the body is not read any further: the 413 closes the connection.
    if (Number(rawHeader(incoming.rawHeaders, "content-length")) > limit) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const received = new ByteBuffer();
      const onData = (chunk: Buffer): void => {
        if (received.length + chunk.length <= limit) {
          received.push(chunk);
          return;
        }
        incoming.off("data", onData);
        incoming.pause();
        resolve(undefined);
      };
      incoming.on("data", onData);
      incoming.once("end", () => resolve(received.bytes()));
      incoming.once("error", reject);
    });
  }
}

// Every Host header, joined as Bun joins them: several is an error that the target check reports.
// A header from Node's raw list (names as the client spelled them), several joined as `Headers` does.
function rawHeader(raw: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const candidate = raw[i]!;
    if (candidate.length === name.length && sameName(candidate, name))
      value = value === null ? raw[i + 1]! : `${value}${joiner(name)}${raw[i + 1]}`;
  }
  return value;
}

// A header name as the client spelled it against a lower-case one of the same length, without the
// string `toLowerCase` would make for every header of that length.
function sameName(candidate: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = candidate.charCodeAt(i);
    if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

// Lines of one header are joined with `, `, but `Cookie` lines with `; ` (RFC 9113 §8.2.3; Bun and
// Deno do the same), so that every cookie of every line is read, as on the other runtimes.
function joiner(name: string): string {
  return name === "cookie" ? "; " : ", ";
}

// Origin-form targets go after the authority; absolute-form ones keep their authority and path (the
// target check then takes the authority from Host) but never their scheme, which is the connection's;
// `*` is the server itself; anything else (another scheme) is left for the target check to refuse.
function urlOf(scheme: string, authority: string, target: string): string {
  if (target.charCodeAt(0) === 47 /* / */) return `${scheme}://${authority}${target}`;
  if (target === "*") return `${scheme}://${authority}/*`;
  if (/^https?:\/\//i.test(target)) return `${scheme}://${target.slice(target.indexOf("://") + 3)}`;
  return target;
}
