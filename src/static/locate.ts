// Where a request's path leads under the root: the one place that decides which files may be opened.
import type { FileAccess, FileInfo } from "../runtime/files.ts";
import { isInside } from "./file-path.ts";

/**
 * Every path Portico may open goes through here: a file (symlinks followed) whose real path is inside
 * the root unless `followSymlinks`. The file asked for, an index, an extension's fallback and a
 * precompressed sibling alike: a sibling `app.js.br → ../secret` is as outside as `leak.txt → ../secret`.
 */
export function fileChecker(files: FileAccess, root: string, followSymlinks: boolean) {
  // `known`: what a `stat` of the path just said, so that it is not asked twice.
  return async (path: string, known?: FileInfo): Promise<FileInfo | undefined> => {
    const info = known ?? (await files.stat(path));
    if (info?.kind !== "file") return undefined;
    if (followSymlinks) return info;
    const real = await files.realPath(path);
    return real !== undefined && isInside(real, root) ? info : undefined;
  };
}

/** Answers whether a path is a file that may be opened (see {@link fileChecker}). */
export type FileCheck = ReturnType<typeof fileChecker>;

// What a path names: a file (itself or by an extension's fallback), a directory's index, or a
// directory reached without its trailing slash (`redirect`: the client is sent to the slash form,
// so that the index's relative links resolve). A file named with a trailing slash names nothing.
export async function locate(
  files: FileAccess,
  fileAt: FileCheck,
  root: string,
  segments: readonly string[],
  slash: boolean,
  options: { indexes: readonly string[]; extensions: readonly string[]; redirect: boolean },
): Promise<{ path: string; info: FileInfo } | "redirect" | undefined> {
  const path = segments.length === 0 ? root : `${root}/${segments.join("/")}`;
  const info = await files.stat(path);
  if (info === undefined) {
    if (slash || segments.length === 0) return undefined;
    for (const extension of options.extensions) {
      const found = await fileAt(path + extension);
      if (found !== undefined) return { path: path + extension, info: found };
    }
    return undefined;
  }
  if (info.kind === "file") {
    if (slash) return undefined;
    const found = await fileAt(path, info);
    return found === undefined ? undefined : { path, info: found };
  }
  if (info.kind !== "directory") return undefined;
  for (const index of options.indexes) {
    const candidate = `${path}/${index}`;
    const found = await fileAt(candidate);
    if (found === undefined) continue;
    return slash || !options.redirect ? { path: candidate, info: found } : "redirect";
  }
  return undefined;
}
