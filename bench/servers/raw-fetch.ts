// The limit on Bun and Deno: a Fetch handler with hand-written routing, parsing and validation.
const TEXT = { "content-type": "text/plain; charset=utf-8" };
const INT = /^-?\d{1,10}$/;

/** A decimal Int32, or undefined. */
export function int32(text: string): number | undefined {
  if (!INT.test(text)) return undefined;
  const n = Number(text);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** S3's query by hand: `offset` optional, `limit` defaulting to 10, both Int32; null when invalid. */
export function parseSearch(query: string): { offset: number | undefined; limit: number } | null {
  let offset: number | undefined | null;
  let limit: number | undefined | null = 10;
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (key === "offset" && value !== "") offset = int32(value) ?? null;
    else if (key === "limit" && value !== "") limit = int32(value) ?? null;
  }
  return offset === null || limit === null || limit === undefined ? null : { offset, limit };
}

/** The whole raw server for Bun and Deno. */
export async function rawFetch(req: Request): Promise<Response> {
  const url = req.url;
  const start = url.indexOf("/", 8);
  const q = url.indexOf("?", start);
  const path = q < 0 ? url.slice(start) : url.slice(start, q);
  if (req.method === "GET") {
    if (path === "/") return new Response("Hello World", { headers: TEXT });
    if (path.startsWith("/users/")) {
      const id = int32(path.slice(7));
      if (id === undefined) return new Response("bad id", { status: 400 });
      return Response.json({ id, name: `user${id}` });
    }
    if (path === "/search") {
      const search = parseSearch(q < 0 ? "" : url.slice(q + 1));
      return search ? Response.json(search) : new Response("bad query", { status: 400 });
    }
  } else if (req.method === "POST" && path === "/users") {
    let body: { user?: { name?: unknown; email?: unknown } };
    try {
      body = await req.json();
    } catch {
      return new Response("bad json", { status: 400 });
    }
    const user = body?.user;
    if (typeof user?.name !== "string" || typeof user?.email !== "string")
      return new Response("bad user", { status: 400 });
    return Response.json({ name: user.name, email: user.email }, { status: 201 });
  }
  return new Response("not found", { status: 404 });
}

/**
 * The same, with what Portico adds to every response: an `X-Request-Id` of a fresh UUID v4. Measures
 * what that header costs the runtime, beside the framework.
 */
export async function rawFetchWithId(req: Request): Promise<Response> {
  const response = await rawFetch(req);
  response.headers.set("x-request-id", crypto.randomUUID());
  return response;
}
