// An app's life around its requests: `app.onStart()` hooks run once before the first request is
// answered (awaited by every adapter's `serve()` before it listens, else by the first request), and
// closing (`app.close()`): its websockets first, "going away", then its topics' backplane, then the
// app's own resources (`app.onClose()`).
import { settleWithin } from "../runtime/settle-within.ts";
import type { AppState } from "./app-state.ts";

/** How long `app.close()` waits for its websockets' clients to answer the close. */
const SOCKETS_GRACE = 5000;

/**
 * Runs what `onStart()` registered, in order, once (the same promise to every caller); the app
 * answers requests from then on. A failure is logged, and kept: requests are then answered 503.
 */
export function startApp(state: AppState): Promise<void> {
  state.starting ??= (async () => {
    for (const start of state.starters) await start();
    state.started = true;
  })();
  state.starting.catch((error: unknown) =>
    state.logger.error("[portico] an onStart() callback failed", error),
  );
  return state.starting;
}

/** Closes the app's websockets with 1001 and waits up to 5 s for their clients to answer. */
export async function closeSockets(state: AppState): Promise<void> {
  const sockets = [...state.sockets];
  if (sockets.length === 0) return;
  const closed = sockets.map((socket) => new Promise<void>((resolve) => socket.onClose(() => resolve())));
  for (const socket of sockets) socket.close(1001, "Server shutting down");
  await settleWithin(Promise.all(closed), SOCKETS_GRACE);
}

/**
 * Closes the app's websockets with 1001 (waiting up to 5 s), drains and closes the backplane, then runs
 * what `onClose()` registered, the last first.
 */
export async function closeApp(state: AppState): Promise<void> {
  await closeSockets(state);
  await state.hub.close();
  for (const release of state.closers.toReversed()) {
    try {
      await release();
    } catch (error) {
      state.logger.error("[portico] an onClose() callback failed", error);
    }
  }
}
