import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { responseParts } from "../context/light-response.ts";

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
 * Writes a response to a Node response. Portico's own responses are written from their parts: a
 * string or bytes body in one `end()` call with a `Content-Length`; any other `Response` is read.
 * Streams go through `pipeline` (backpressure, and cleanup when either side fails).
 */
export function writeResponse(response: Response, res: ServerResponse): Promise<void> | undefined {
  const parts = responseParts(response);
  const headers: OutgoingHttpHeaders = parts
    ? parts.headers instanceof Headers
      ? toNodeHeaders(parts.headers)
      : (parts.headers as OutgoingHttpHeaders)
    : toNodeHeaders(response.headers);
  const body = parts ? parts.body : response.body;
  if (typeof body === "string" || body instanceof Uint8Array) {
    headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    res.writeHead(response.status, headers);
    res.end(body);
    return undefined;
  }
  res.writeHead(response.status, headers);
  if (body === null) {
    res.end();
    return undefined;
  }
  return pipeline(Readable.fromWeb(body as NodeReadableStream), res).catch(() => {
    // The client went away or the body stream failed; pipeline has destroyed both sides.
  });
}
