// Reading files, as `serveStatic()` needs it: the one capability the core asks of a runtime's file
// system, answered by Node's `fs`, `Bun.file` and `Deno.open` in src/adapters/ (none on Workers).

/** What a path is, following symlinks. */
export interface FileInfo {
  /** `file`, `directory`, or `other` (a socket, a device…). */
  readonly kind: "file" | "directory" | "other";
  /** Its size in bytes. */
  readonly size: number;
  /** When it last changed, in ms since the epoch. */
  readonly mtimeMs: number;
}

/** A runtime's file system, read only. Paths are absolute, with `/` between segments. */
export interface FileAccess {
  /** The absolute form of a path (relative ones from the working directory). */
  absolute(path: string): Promise<string>;
  /** What is at the path (symlinks followed), or `undefined` when nothing readable is. */
  stat(path: string): Promise<FileInfo | undefined>;
  /** The path with every symlink resolved, or `undefined` when it does not exist. */
  realPath(path: string): Promise<string | undefined>;
  /** The bytes from `start` to `end` (both included) as a stream; cancelling it closes the file. */
  read(path: string, start: number, end: number): ReadableStream<Uint8Array>;
  /** The bytes from `start` to `end` (both included) at once: for small files, where a stream costs more. */
  readAll(path: string, start: number, end: number): Promise<Uint8Array>;
}
