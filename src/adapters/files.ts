// The file systems `serveStatic()` reads through (`Runtime.files`): Node's `fs` (also what an app made
// by `createApp()` on Node uses in-process), `Bun.file`, and `Deno.open`. Node's modules are loaded on
// first use through a specifier bundlers leave alone, so a Worker bundle holds none of them.
import type { FileAccess, FileInfo } from "../runtime/files.ts";

type NodeFs = typeof import("node:fs");
type NodeFsPromises = typeof import("node:fs/promises");
type NodePath = typeof import("node:path");
type NodeStream = typeof import("node:stream");

interface NodeModules {
  readonly fs: NodeFs;
  readonly promises: NodeFsPromises;
  readonly path: NodePath;
  readonly stream: NodeStream;
}

// Node's modules through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno): no import for a bundler
// to follow, so a Worker bundle holds none of them, and nothing is loaded where no file is read.
let loaded: NodeModules | undefined;
function nodeModules(): NodeModules {
  if (loaded !== undefined) return loaded;
  const get = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process
    ?.getBuiltinModule;
  if (get === undefined)
    throw new Error("serveStatic(): reading files needs process.getBuiltinModule (Node ≥ 20.16)");
  loaded = {
    fs: get("node:fs") as NodeFs,
    promises: get("node:fs/promises") as NodeFsPromises,
    path: get("node:path") as NodePath,
    stream: get("node:stream") as NodeStream,
  };
  return loaded;
}
function infoOf(stats: {
  isFile(): boolean;
  isDirectory(): boolean;
  size: number;
  mtimeMs: number;
}): FileInfo {
  const kind = stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
  return { kind, size: stats.size, mtimeMs: Math.floor(stats.mtimeMs) };
}

// A stream that opens its source when first pulled (a HEAD or a refused request opens nothing).
function lazyStream(open: () => Promise<ReadableStream<Uint8Array>>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (await open()).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

// Node's callback API: its promise API (`fs/promises`, `FileHandle`) costs more per call.
function call<T>(run: (done: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));
}

/** Node's `fs` (and what Bun and Deno share of it: paths, stats). */
export const nodeFiles: FileAccess = {
  async absolute(path) {
    return nodeModules().path.resolve(path);
  },
  async stat(path) {
    const { fs } = nodeModules();
    try {
      return infoOf(await call<import("node:fs").Stats>((done) => fs.stat(path, done)));
    } catch {
      return undefined;
    }
  },
  async realPath(path) {
    const { fs } = nodeModules();
    try {
      return await call<string>((done) => fs.realpath.native(path, done));
    } catch {
      return undefined;
    }
  },
  read(path, start, end) {
    const stream = lazyStream(async () => {
      const { fs, stream } = nodeModules();
      const file = fs.createReadStream(path, { start, end, highWaterMark: 64 * 1024 });
      return stream.Readable.toWeb(file) as unknown as ReadableStream<Uint8Array>;
    });
    nodeFileStreams.set(stream, { path, start, end });
    return stream;
  },
  async readAll(path, start, end) {
    const { fs } = nodeModules();
    const fd = await call<number>((done) => fs.open(path, "r", done));
    try {
      const bytes = new Uint8Array(end - start + 1);
      let read = 0;
      while (read < bytes.byteLength) {
        const count = await call<number>((done) =>
          fs.read(fd, bytes, read, bytes.byteLength - read, start + read, (error, n) => done(error, n)),
        );
        if (count === 0) break;
        read += count;
      }
      return read === bytes.byteLength ? bytes : bytes.subarray(0, read);
    } finally {
      await call<void>((done) => fs.close(fd, (error) => done(error ?? null, undefined)));
    }
  },
};

/** A file's bytes as `nodeFiles.read` promised them, for a Node server to pipe without web streams. */
export interface NodeFileRange {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

// The streams `nodeFiles.read` made, untouched while their file was not opened.
const nodeFileStreams = new WeakMap<ReadableStream<Uint8Array>, NodeFileRange>();

/**
 * The file range behind a stream `nodeFiles.read` made, while nothing has read it (the Node adapter
 * then pipes the file itself); `undefined` for any other stream.
 */
export function nodeFileOf(stream: unknown): NodeFileRange | undefined {
  const range = nodeFileStreams.get(stream as ReadableStream<Uint8Array>);
  return range !== undefined && !(stream as ReadableStream).locked ? range : undefined;
}

declare const Bun: {
  file(path: string): { slice(start: number, end: number): { stream(): ReadableStream<Uint8Array> } };
};

/** Bun: paths and stats as Node's, bytes through `Bun.file`. */
export const bunFiles: FileAccess = {
  ...nodeFiles,
  read: (path, start, end) =>
    Bun.file(path)
      .slice(start, end + 1)
      .stream(),
};

interface DenoFile {
  seek(offset: number, whence: number): Promise<number>;
  readonly readable: ReadableStream<Uint8Array>;
  close(): void;
}
declare const Deno: {
  stat(path: string): Promise<{ isFile: boolean; isDirectory: boolean; size: number; mtime: Date | null }>;
  realPath(path: string): Promise<string>;
  open(path: string): Promise<DenoFile>;
  cwd(): string;
  readonly SeekMode: { readonly Start: number };
};

/** Deno: `Deno.stat`, `Deno.realPath`, `Deno.open`. */
export const denoFiles: FileAccess = {
  ...nodeFiles,
  async stat(path) {
    try {
      const stats = await Deno.stat(path);
      const kind = stats.isFile ? "file" : stats.isDirectory ? "directory" : "other";
      return { kind, size: stats.size, mtimeMs: stats.mtime?.getTime() ?? 0 };
    } catch {
      return undefined;
    }
  },
  async realPath(path) {
    try {
      return await Deno.realPath(path);
    } catch {
      return undefined;
    }
  },
  read(path, start, end) {
    return lazyStream(async () => {
      const file = await Deno.open(path);
      await file.seek(start, Deno.SeekMode.Start);
      let left = end - start + 1;
      return file.readable.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            if (left <= 0) return;
            const part = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
            left -= part.byteLength;
            controller.enqueue(part);
            if (left <= 0) controller.terminate();
          },
        }),
      );
    });
  },
};
