// The runtimes that call `app.fetch` themselves (no server adapter): the app is given the one it runs
// on when it is made (`src/create-app.ts`).
import { NO_RUNTIME, type Runtime } from "../runtime/runtime.ts";
import { bunRuntime, onBun } from "./bun-runtime.ts";
import { denoRuntime, onDeno } from "./deno-runtime.ts";
import { onWorkerd, workersRuntime } from "./workers-runtime.ts";

/** The runtime this process runs on, when it is one that serves `app.fetch` itself; else none. */
export const fetchRuntime: Runtime = onBun
  ? bunRuntime
  : onDeno
    ? denoRuntime
    : onWorkerd
      ? workersRuntime
      : NO_RUNTIME;
