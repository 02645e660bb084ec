// Bun: the app's own `fetch` and `websocket`, as `export default app` would hand them over.
import { app } from "../../conformance/fixture-app.ts";

declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: unknown; websocket: unknown }): { url: URL };
};

const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch, websocket: app.websocket });
console.log(`READY ${server.url.origin}`);
