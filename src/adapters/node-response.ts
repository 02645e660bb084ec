import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { bodySource } from "../mod.ts";

/** Node header values from a `Headers`, with every `Set-Cookie` kept apart. */
export function toNodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    out[name] = value;
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/**
 * Writes a `Response` to a Node response: a Portico string/bytes body in one `end()` call,
 * a stream through `pipeline` (backpressure, and cleanup when either side fails).
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers = toNodeHeaders(response.headers);
  const source = bodySource(response);
  if (source !== undefined) {
    // Known length: a Content-Length instead of chunked encoding, and one write.
    headers["content-length"] = String(
      typeof source === "string" ? Buffer.byteLength(source) : source.byteLength,
    );
    res.writeHead(response.status, headers);
    res.end(source);
    return;
  }
  res.writeHead(response.status, headers);
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream), res);
  } catch {
    // The client went away or the body stream failed; pipeline has destroyed both sides.
  }
}
