// The app every runtime serves for the conformance suite: each topic registers its own routes, beside
// the cases that check them. It uses only the public API.
import { createApp } from "../../src/mod.ts";
import { TOPICS } from "./topics.ts";

export const app = createApp({
  logger: { error: () => {}, warn: () => {} },
  // Above every adapter's and runtime's own default, to show the app's setting is the one applied.
  limits: { wsMessageSize: 2 * 1024 * 1024 },
  // topics/recovery.ts: these topics keep a history (in memory: no backplane here).
  history: { topics: ["kept:*"] },
});
for (const topic of TOPICS) topic.routes(app);
