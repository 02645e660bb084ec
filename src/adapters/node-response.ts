import { createReadStream } from "node:fs";
import { type OutgoingHttpHeaders, type ServerResponse, STATUS_CODES } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { nextRequestId } from "../context/request-id.ts";
import { ResponseHeaders } from "../http/response-headers.ts";
import type { ResponseParts } from "../http/response-parts.ts";
import { nodeFileOf } from "./files.ts";

/** What the adapter needs of the app to answer on its own: where to log, and the id header. */
export interface Reporting {
  readonly requestIdHeader?: string;
  readonly logger?: { error(message: string, error?: unknown): void };
}

/** Node header values from a `Headers`, with every `Set-Cookie` kept apart. */
export function toNodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    out[name] = value;
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/**
 * Writes a response's parts to a Node response: a string or bytes body in one `end()` call with its
 * `Content-Length`; Portico's own headers as one flat list (`writeHead(status, [name, value, …])`), a
 * runtime's `Headers` as an object. Streams go through `pipeline` (backpressure, and cleanup when either
 * side fails). Whatever a handler put in the response, Node refusing it (a header value Fetch allows but
 * HTTP does not) never takes the process down: the client gets a 500, and the failure is logged with
 * the request id.
 */
export function writeParts(parts: ResponseParts, res: ServerResponse, app: Reporting): void {
  try {
    write(parts, res);
  } catch (error) {
    const idHeader = app.requestIdHeader ?? "x-request-id";
    const id = headerOf(parts, idHeader) ?? nextRequestId();
    (app.logger ?? console).error(`[portico] the response to request ${id} could not be written`, error);
    answerError(res, 500, idHeader, id);
  }
}

function write(parts: ResponseParts, res: ServerResponse): void {
  const { status, body } = parts;
  const known = typeof body === "string" || body instanceof Uint8Array;
  if (parts.headers instanceof ResponseHeaders) {
    const flat = parts.headers.flat();
    if (known) {
      // The length of the bytes sent, over any the app set: one `Content-Length` line, always right.
      const length = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
      const at = flatIndex(flat, "content-length");
      if (at >= 0) flat[at + 1] = length;
      else flat.push("content-length", length);
    }
    writeHead(res, status, parts.statusText, flat);
    if (known) res.end(body);
    else sendBody(body, res);
    closeUnread(res, flatValue(flat, "connection"));
    return;
  }
  const headers = toNodeHeaders(parts.headers);
  if (known) headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  writeHead(res, status, parts.statusText, headers);
  if (known) res.end(body);
  else sendBody(body, res);
  closeUnread(res, headers.connection);
}

function writeHead(
  res: ServerResponse,
  status: number,
  statusText: string | undefined,
  headers: string[] | OutgoingHttpHeaders,
): void {
  if (statusText === undefined) res.writeHead(status, headers);
  else res.writeHead(status, statusText, headers);
}

// A body that is neither text nor bytes: nothing, a file `serveStatic()` chose (piped from the file
// itself, without web streams), or a stream.
function sendBody(body: ResponseParts["body"], res: ServerResponse): void {
  if (body === null) {
    res.end();
    return;
  }
  const file = nodeFileOf(body);
  const stream = body instanceof Blob ? body.stream() : body;
  const source = file
    ? createReadStream(file.path, { start: file.start, end: file.end, highWaterMark: 64 * 1024 })
    : Readable.fromWeb(stream as NodeReadableStream);
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

function headerOf(parts: ResponseParts, name: string): string | undefined {
  try {
    return parts.headers.get(name) ?? undefined;
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
  const reason = STATUS_CODES[status] ?? "";
  const body = `${status} ${reason}`;
  // The reason said: a `writeHead` that failed may have left its own (`500 Created`).
  res.writeHead(status, reason, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    [idHeader]: id,
  });
  res.end(body);
}
