// Closing an app (`app.close()`): its websockets first, "going away", then its topics' backplane, then
// the app's own resources (`app.onClose()`).
import { settleWithin } from "../runtime/settle-within.ts";
import type { AppState } from "./app-state.ts";

/** How long `app.close()` waits for its websockets' clients to answer the close. */
const SOCKETS_GRACE = 5000;

/**
 * Closes the app's websockets with 1001 (waiting up to 5 s), drains and closes the backplane, then runs
 * what `onClose()` registered, the last first.
 */
export async function closeApp(state: AppState): Promise<void> {
  const sockets = [...state.sockets];
  if (sockets.length > 0) {
    const closed = sockets.map((socket) => new Promise<void>((resolve) => socket.onClose(() => resolve())));
    for (const socket of sockets) socket.close(1001, "Server shutting down");
    await settleWithin(Promise.all(closed), SOCKETS_GRACE);
  }
  await state.hub.close();
  for (const release of state.closers.toReversed()) {
    try {
      await release();
    } catch (error) {
      state.logger.error("[portico] an onClose() callback failed", error);
    }
  }
}
