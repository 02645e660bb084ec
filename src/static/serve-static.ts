/**
 * Static files: `app.get("/assets/*", serveStatic({ root: "./public" }))` serves `/assets/css/a.css`
 * from `public/css/a.css` (the wildcard's part is the file's path under the root), streamed, with
 * `Content-Type` (from the `mime` package, an optional peer: `npm install mime`), `ETag` and
 * `Last-Modified` (304), one byte `Range` (206, 416), precompressed `.br`/`.gz` files and index files.
 * Paths are checked before the file system is touched: `..` in any encoding, backslashes, NUL, absolute
 * paths, dotfiles (by default) and symlinks that leave the root are refused. Files are read through the
 * runtime (Node's `fs`, `Bun.file`, `Deno.open`); on Workers, serve them with the platform's static
 * assets, or give `assets` (the binding) to read through it.
 *
 * @example
 * import { serveStatic } from "portico/static";
 * app.get("/assets/*", serveStatic({ root: "./public", maxAge: 31_536_000, immutable: true }));
 *
 * @module portico/static
 */
import type { Context } from "../context/context.ts";
import type { BlockHandler } from "../context/handler.ts";
import { pickEncoding } from "../http/accept.ts";
import type { FileAccess, FileInfo } from "../runtime/files.ts";
import { optionalPeer } from "../runtime/optional-peer.ts";
import { byteRange, entityTag, notModified } from "./conditional.ts";
import { fileSegments } from "./file-path.ts";
import { type FileCheck, fileChecker, locate } from "./locate.ts";

const mime = await optionalPeer("mime", "portico/static", () => import("mime"));

/** A Workers static-assets binding (`env.ASSETS`): what `serveStatic()` reads through on Workers. */
export interface AssetsBinding {
  /** Answers a request for a file under the assets' folder. */
  fetch(request: Request): Promise<Response>;
}

/** Options of {@link serveStatic}. */
export interface StaticOptions {
  /** The folder served (relative to the working directory, or absolute). */
  readonly root: string;
  /** The file served for a directory (default `"index.html"`; a list is tried in order; `false`: none). */
  readonly index?: string | readonly string[] | false;
  /** Files and folders whose name starts with `.`: `"ignore"` (default: 404), `"deny"` (403) or `"allow"`. */
  readonly dotfiles?: "ignore" | "allow" | "deny";
  /** Serve symlinks whose target is outside the root (default `false`: 404). */
  readonly followSymlinks?: boolean;
  /**
   * Extensions tried, in order, for a path that names no file (`[".html"]`: `/guide/routing` serves
   * `guide/routing.html`, as a static site's clean URLs want). Default: none.
   */
  readonly extensions?: readonly string[];
  /** `Cache-Control: public, max-age=<maxAge>`, in seconds (default 0). */
  readonly maxAge?: number;
  /** Add `immutable` to `Cache-Control` (for files whose name changes with their content). */
  readonly immutable?: boolean;
  /**
   * A directory that has an index file, named without its trailing slash (`/docs`), is redirected to
   * the slash form (`/docs/`, 301) so that the index's relative links resolve, as nginx and
   * serve-static do (default `true`; `false` serves the index at both).
   */
  readonly redirect?: boolean;
  /** Serve `<file>.br` or `<file>.gz` beside a file when the client accepts that encoding (default `false`). */
  readonly precompressed?: boolean;
  /** On a runtime without a file system (Workers): the static-assets binding to read through. */
  readonly assets?: (ctx: Context<unknown>) => AssetsBinding | undefined;
}

/** A file chosen to answer: where it is, what it is, and its encoding. */
interface Chosen {
  readonly path: string;
  readonly info: FileInfo;
  readonly type: string;
  readonly coding: "br" | "gzip" | undefined;
}

// Files smaller than this are read at once (one buffer, written in one call); larger ones are streamed,
// so memory stays bounded whatever their size.
const WHOLE_BELOW = 64 * 1024;
const CHARSET = /^(?:text\/|application\/(?:javascript|json|xml|manifest\+json)$|image\/svg\+xml$)/;
const CODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
] as const;

/**
 * A handler serving files under `root` for a wildcard route (`/assets/*`). Answers GET and HEAD; a path
 * that names nothing (or a directory without an index: never a listing) is a 404, a malformed one a 400.
 *
 * @example
 * app.get("/*", serveStatic({ root: "./dist", precompressed: true }));
 */
export function serveStatic(options: StaticOptions): BlockHandler<unknown> {
  if (typeof options?.root !== "string" || options.root === "")
    throw new TypeError("serveStatic(): give the folder to serve as root");
  const dotfiles = options.dotfiles ?? "ignore";
  if (!["ignore", "allow", "deny"].includes(dotfiles))
    throw new TypeError(
      `serveStatic(): dotfiles must be "ignore", "allow" or "deny", got ${JSON.stringify(dotfiles)}`,
    );
  const maxAge = options.maxAge ?? 0;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0)
    throw new TypeError("serveStatic(): maxAge must be a whole number of seconds");
  const indexes =
    options.index === false
      ? []
      : typeof options.index === "string"
        ? [options.index]
        : (options.index ?? ["index.html"]);
  const extensions = options.extensions ?? [];
  for (const extension of extensions) {
    if (!/^\.[A-Za-z0-9]+$/.test(extension))
      throw new TypeError(
        `serveStatic(): an extension is a dot and letters or digits, got ${JSON.stringify(extension)}`,
      );
  }
  const redirect = options.redirect !== false;
  const cacheControl = `public, max-age=${maxAge}${options.immutable ? ", immutable" : ""}`;
  let rootReal: Promise<string | undefined> | undefined;
  let fileAt: FileCheck | undefined;

  return async (ctx) => {
    const method = ctx.request.method;
    if (method !== "GET" && method !== "HEAD") return text(405, "Method Not Allowed", { allow: "GET, HEAD" });
    const relative = ctx.request.pathParams["0"] ?? "";
    const segments = fileSegments(relative, dotfiles);
    if (segments === "bad") return text(400, "Bad Request: the path does not name a file");
    if (segments === "hidden") return dotfiles === "deny" ? text(403, "Forbidden") : notFound();
    const files = ctx.runtime.files;
    if (files === undefined) return throughAssets(ctx, options, segments);
    rootReal ??= files.absolute(options.root).then((root) => files.realPath(root));
    const root = await rootReal;
    if (root === undefined) return notFound();
    // Made once, with the root (which, like `files`, is the first request's for the handler's life).
    fileAt ??= fileChecker(files, root, options.followSymlinks === true);
    // The wildcard leaves out a trailing slash: the path tells whether there was one.
    const slash = relative === "" || ctx.request.path.endsWith("/");
    const found = await locate(files, fileAt, root, segments, slash, { indexes, extensions, redirect });
    if (found === undefined) return notFound();
    if (found === "redirect") return toDirectory(segments, ctx.request.query);
    const chosen = options.precompressed
      ? await precompressed(fileAt, found, ctx.request.headers)
      : plain(found);
    return answer(ctx, files, chosen, cacheControl, options.precompressed === true);
  };
}

function plain(found: { path: string; info: FileInfo }): Chosen {
  return { ...found, type: contentType(found.path), coding: undefined };
}

// `<file>.br` or `<file>.gz` when the client takes that encoding and the file exists beside the
// original, inside the root like any file served.
async function precompressed(
  fileAt: FileCheck,
  found: { path: string; info: FileInfo },
  headers: Headers,
): Promise<Chosen> {
  const accept = headers.get("accept-encoding");
  const first = pickEncoding(accept, ["br", "gzip"]);
  if (first === undefined) return plain(found);
  const order = first === "br" ? CODINGS : CODINGS.toReversed();
  for (const [coding, suffix] of order) {
    if (pickEncoding(accept, [coding]) !== coding) continue;
    const info = await fileAt(found.path + suffix);
    if (info !== undefined) return { path: found.path + suffix, info, type: contentType(found.path), coding };
  }
  return plain(found);
}

function contentType(path: string): string {
  const type = mime.default.getType(path) ?? "application/octet-stream";
  return CHARSET.test(type) ? `${type}; charset=utf-8` : type;
}

// The answer, written into `ctx.response` (no `Response` to build and copy: the adapter writes the parts).
function answer(
  ctx: Context<unknown>,
  files: FileAccess,
  chosen: Chosen,
  cacheControl: string,
  varies: boolean,
): Promise<void> | undefined {
  const { size, mtimeMs } = chosen.info;
  const tag = entityTag(size, mtimeMs, chosen.coding);
  const response = ctx.response;
  const headers = response.headers;
  headers.set("etag", tag);
  headers.set("last-modified", new Date(mtimeMs).toUTCString());
  headers.set("cache-control", cacheControl);
  headers.set("accept-ranges", "bytes");
  if (varies) headers.set("vary", "Accept-Encoding");
  if (notModified(ctx.request.headers, tag, mtimeMs)) {
    response.status = 304;
    return undefined;
  }
  const range = byteRange(ctx.request.headers, size, tag, mtimeMs);
  if (range === "unsatisfiable") {
    response.status = 416;
    headers.set("content-range", `bytes */${size}`);
    return undefined;
  }
  headers.set("content-type", chosen.type);
  if (chosen.coding) headers.set("content-encoding", chosen.coding);
  const [start, end] = range === "whole" ? [0, size - 1] : range;
  if (range !== "whole") {
    response.status = 206;
    headers.set("content-range", `bytes ${start}-${end}/${size}`);
  }
  headers.set("content-length", String(end - start + 1));
  if (ctx.request.method === "HEAD" || end < start) {
    response.body = end < start ? "" : null;
    return undefined;
  }
  if (end - start >= WHOLE_BELOW) {
    response.body = files.read(chosen.path, start, end);
    return undefined;
  }
  return files.readAll(chosen.path, start, end).then((bytes) => {
    response.body = bytes;
  });
}

// Workers: the static-assets binding answers for the same file under its own folder (the root there),
// with its own types, validators and ranges.
async function throughAssets(
  ctx: Context<unknown>,
  options: StaticOptions,
  segments: readonly string[],
): Promise<Response> {
  const binding = options.assets?.(ctx);
  if (binding === undefined)
    throw new Error(
      `serveStatic(): ${ctx.runtime.name} has no file system: serve the files with the platform's static assets, or give serveStatic({ assets: (ctx) => ctx.env.ASSETS })`,
    );
  const url = new URL(`/${segments.map(encodeURIComponent).join("/")}`, ctx.request.url);
  return binding.fetch(new Request(url, { method: ctx.request.method, headers: ctx.request.headers }));
}

function text(status: number, body: string, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...extra } });
}

// A relative `Location` (`./docs/?q`): the client resolves it against the URL it asked for, so it
// stays on this origin whatever the path holds (no `//host` to take it elsewhere); `./` keeps a segment
// such as `a:b` from reading as a scheme.
function toDirectory(segments: readonly string[], query: string): Response {
  const last = encodeURIComponent(segments[segments.length - 1]!);
  return new Response(null, {
    status: 301,
    headers: { location: `./${last}/${query === "" ? "" : `?${query}`}` },
  });
}

function notFound(): Response {
  return text(404, "Not Found");
}
