import { buildHono } from "../hono-app.ts";

declare const Deno: {
  serve(options: object, handler: (req: Request) => Response | Promise<Response>): unknown;
  env: { get(name: string): string | undefined };
};

const app = buildHono({ requestId: Deno.env.get("REQUEST_ID") === "1" });
Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 3000),
    hostname: "127.0.0.1",
    onListen: ({ port }: { port: number }) => console.log(`READY http://127.0.0.1:${port}`),
  },
  app.fetch,
);
