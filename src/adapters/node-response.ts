import { createReadStream } from "node:fs";
import { type OutgoingHttpHeaders, type ServerResponse, STATUS_CODES } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { nextRequestId } from "../context/request-id.ts";
import { responseParts } from "../fast-path/fast-path.ts";
import { ResponseHeaders } from "../http/response-headers.ts";
import { nodeFileOf } from "./files.ts";

/** What the adapter needs of the app to answer on its own: where to log, and the id header. */
export interface Reporting {
  readonly requestIdHeader?: string;
  readonly logger?: { error(message: string, error?: unknown): void };
}

/** Node header values from a `Headers`, with every `Set-Cookie` kept apart. */
export function toNodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  // (Portico's own `ResponseHeaders` never get here: `write` sends them as a flat list.)
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    out[name] = value;
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/**
 * Writes a response to a Node response. Portico's own responses are written from their parts: a
 * string or bytes body in one `end()` call with a `Content-Length`; any other `Response` is read.
 * Streams go through `pipeline` (backpressure, and cleanup when either side fails). Whatever a handler
 * put in the response, Node refusing it (a header value Fetch allows but HTTP does not) never takes the
 * process down: the client gets a 500, and the failure is logged with the request id.
 */
export function writeResponse(response: Response, res: ServerResponse, app: Reporting): void {
  try {
    write(response, res);
  } catch (error) {
    const idHeader = app.requestIdHeader ?? "x-request-id";
    const id = headerOf(response, idHeader) ?? nextRequestId();
    (app.logger ?? console).error(`[portico] the response to request ${id} could not be written`, error);
    answerError(res, 500, idHeader, id);
  }
}

function write(response: Response, res: ServerResponse): void {
  const parts = responseParts(response);
  const body = parts ? parts.body : response.body;
  // Portico's own headers go as one flat list (`writeHead(status, [name, value, …])`); others as an object.
  if (parts?.headers instanceof ResponseHeaders) {
    const flat = parts.headers.flat();
    if (typeof body === "string" || body instanceof Uint8Array) {
      // The length of the bytes sent, over any the app set: one `Content-Length` line, always right.
      const length = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
      const at = flatIndex(flat, "content-length");
      if (at >= 0) flat[at + 1] = length;
      else flat.push("content-length", length);
      res.writeHead(response.status, flat);
      res.end(body);
    } else {
      res.writeHead(response.status, flat);
      sendBody(body, res);
    }
    closeUnread(res, flatValue(flat, "connection"));
    return;
  }
  const headers: OutgoingHttpHeaders = parts
    ? parts.headers instanceof Headers
      ? toNodeHeaders(parts.headers)
      : // A plain object is built for this one response: written into directly.
        (parts.headers as OutgoingHttpHeaders)
    : toNodeHeaders(response.headers);
  if (typeof body === "string" || body instanceof Uint8Array) {
    headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    res.writeHead(response.status, headers);
    res.end(body);
  } else {
    res.writeHead(response.status, headers);
    sendBody(body, res);
  }
  closeUnread(res, headers.connection);
}

// A body that is neither text nor bytes: nothing, a file `serveStatic()` chose (piped from the file
// itself, without web streams), or a stream.
function sendBody(body: unknown, res: ServerResponse): void {
  if (body === null) {
    res.end();
    return;
  }
  const file = nodeFileOf(body);
  const source = file
    ? createReadStream(file.path, { start: file.start, end: file.end, highWaterMark: 64 * 1024 })
    : Readable.fromWeb(body as NodeReadableStream);
  pipeline(source, res).catch(() => {
    // The client went away or the body stream failed; pipeline has destroyed both sides.
  });
}

// A request refused before its body was read (413) is not read any further: the connection ends.
function closeUnread(res: ServerResponse, connection: unknown): void {
  if (connection === "close" && !res.req.complete) res.once("finish", () => res.socket?.destroySoon());
}

function flatIndex(flat: readonly string[], name: string): number {
  for (let i = 0; i < flat.length; i += 2) if (flat[i] === name) return i;
  return -1;
}

function flatValue(flat: readonly string[], name: string): string | undefined {
  const at = flatIndex(flat, name);
  return at < 0 ? undefined : flat[at + 1];
}

function headerOf(response: Response, name: string): string | undefined {
  try {
    const parts = responseParts(response);
    const headers = parts ? parts.headers : response.headers;
    return (
      (headers instanceof Headers || headers instanceof ResponseHeaders
        ? headers.get(name)
        : headers[name]) ?? undefined
    );
  } catch {
    return undefined;
  }
}

/** An answer from the adapter itself, with the app's request-id header. */
export function answerError(res: ServerResponse, status: number, idHeader: string, id: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${status} ${STATUS_CODES[status] ?? ""}`;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    [idHeader]: id,
  });
  res.end(body);
}
