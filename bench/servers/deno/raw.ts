// The limit on Deno: Deno.serve with a hand-written handler.
import { rawFetch } from "../raw-fetch.ts";

declare const Deno: {
  serve(options: object, handler: (req: Request) => Promise<Response>): unknown;
  env: { get(name: string): string | undefined };
};

Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 3000),
    hostname: "127.0.0.1",
    onListen: ({ port }: { port: number }) => console.log(`READY http://127.0.0.1:${port}`),
  },
  rawFetch,
);
