// Deno, the documented way: `Deno.serve(app.fetch)`.
import { app } from "../../conformance/fixture-app.ts";

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: typeof app.fetch,
  ): unknown;
};

Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log(`READY http://127.0.0.1:${port}`) },
  app.fetch,
);
