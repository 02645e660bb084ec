const sourceKey = Symbol.for("portico.body-source");

/**
 * The string or bytes a Portico-built `Response` was made from, so that server adapters can write
 * it in one call instead of reading the body stream. `undefined` for any other response.
 */
export function bodySource(response: Response): string | Uint8Array | undefined {
  return (response as { [sourceKey]?: string | Uint8Array })[sourceKey];
}

/** Builds a response whose body is a string or bytes, remembering them for {@link bodySource}. */
export function responseFrom(body: string | Uint8Array, status: number, headers: HeadersInit): Response {
  const response = new Response(body as BodyInit, { status, headers });
  (response as { [sourceKey]?: string | Uint8Array })[sourceKey] = body;
  return response;
}
