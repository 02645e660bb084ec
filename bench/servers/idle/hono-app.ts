// The Hono app of the Node and Deno idle-socket servers: each socket kept in one topic (a Set, since
// neither adapter has native pub/sub), given "ready".
import { Hono } from "hono";
import type { UpgradeWebSocket, WSContext } from "hono/ws";

// biome-ignore lint/suspicious/noExplicitAny: each runtime's helper has its own socket type
export function idleApp(upgradeWebSocket: UpgradeWebSocket<any>): Hono {
  const topic = new Set<WSContext<unknown>>();
  const app = new Hono();
  app.get(
    "/bench",
    upgradeWebSocket(() => ({
      onOpen: (_event, ws) => {
        topic.add(ws);
        ws.send("ready");
      },
      onClose: (_event, ws) => void topic.delete(ws),
    })),
  );
  return app;
}
