// The limit on Deno: Deno.serve with a hand-written handler (REQUEST_ID=1: and a request id header;
// READ_HOST=1: and the Host header read, as every framework that checks it must).
import { rawFetch, rawFetchWithId } from "../raw-fetch.ts";

declare const Deno: {
  serve(options: object, handler: (req: Request) => Promise<Response>): unknown;
  env: { get(name: string): string | undefined };
};

const handler = Deno.env.get("REQUEST_ID") === "1" ? rawFetchWithId : rawFetch;

Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 3000),
    hostname: "127.0.0.1",
    onListen: ({ port }: { port: number }) => console.log(`READY http://127.0.0.1:${port}`),
  },
  Deno.env.get("READ_HOST") === "1"
    ? (req) =>
        req.headers.get("host") === null ? Promise.resolve(new Response(null, { status: 400 })) : handler(req)
    : handler,
);
