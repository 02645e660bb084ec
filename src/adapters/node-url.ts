import type { IncomingMessage } from "node:http";

const HOST = /^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
// Characters the URL parser leaves as they are in a path and query: a target made only of them, with
// no dot segment, is already what `new URL()` would serialise.
const SAFE_TARGET = /^\/[!$&()*+,\-./0-9:;=?@A-Z_a-z~%]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

/**
 * The absolute URL of a Node request, from a validated `Host` header and the request target —
 * never `new URL(req.url, base)`, which would let a target like `//evil.example/` pick the host.
 * Returns `undefined` when the Host header or the target is not acceptable (the adapter answers 400).
 */
export function requestUrl(incoming: IncomingMessage, fallbackHost: string): string | undefined {
  const host = incoming.headers.host ?? fallbackHost;
  if (!HOST.test(host)) return undefined;
  const protocol = (incoming.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const target = incoming.url ?? "/";
  const origin = `${protocol}://${host.toLowerCase()}`;
  if (target.charCodeAt(0) === 47 /* / */) {
    if (SAFE_TARGET.test(target) && !DOT_SEGMENT.test(target)) return origin + target;
    return parse(origin + target);
  }
  // Absolute-form (`GET http://host/path`): keep our host, take only the path and query.
  if (/^https?:\/\//i.test(target)) {
    const url = parse(target);
    if (url === undefined) return undefined;
    const parsed = new URL(url);
    return origin + parsed.pathname + parsed.search;
  }
  return undefined;
}

function parse(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}
