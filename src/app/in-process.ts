// `app.request()`'s input: a path (on `http://localhost`), a URL, or a `Request`, as a `Request`.

/** The `Request` `app.request(input, init)` dispatches. */
export function inProcessRequest(input: string | Request, init: RequestInit | undefined): Request {
  if (typeof input !== "string") return init === undefined ? input : new Request(input, init);
  const url = /^https?:\/\//.test(input)
    ? input
    : `http://localhost${input.startsWith("/") ? "" : "/"}${input}`;
  return new Request(url, init);
}
