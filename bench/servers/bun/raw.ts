// The limit on Bun: Bun.serve with a hand-written handler (REQUEST_ID=1: and a request id header).
import { rawFetch, rawFetchWithId } from "../raw-fetch.ts";

declare const Bun: { serve(options: object): { port: number } };

const server = Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  hostname: "127.0.0.1",
  fetch: process.env.REQUEST_ID === "1" ? rawFetchWithId : rawFetch,
});
console.log(`READY http://127.0.0.1:${server.port}`);
