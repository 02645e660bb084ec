// The runtimes that call `app.fetch` themselves (no server adapter): the app is given the one it runs
// on when it is made (`src/create-app.ts`).
import { NO_RUNTIME, type Runtime } from "../runtime/runtime.ts";
import { builtinAsyncStorage } from "./async-storage.ts";
import { bunRuntime, onBun } from "./bun-runtime.ts";
import { denoRuntime, onDeno } from "./deno-runtime.ts";
import { nodeFiles } from "./files.ts";
import { onWorkerd, workersRuntime } from "./workers-runtime.ts";

const onNode =
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === "string";

/**
 * The runtime this process runs on, when it is one that serves `app.fetch` itself; on Node (which
 * needs `portico/node` to serve), none but its file system, for `app.request()` in tests; else none.
 */
export const fetchRuntime: Runtime = onBun
  ? bunRuntime
  : onDeno
    ? denoRuntime
    : onWorkerd
      ? workersRuntime
      : onNode
        ? { ...NO_RUNTIME, files: nodeFiles, asyncStorage: builtinAsyncStorage }
        : NO_RUNTIME;
