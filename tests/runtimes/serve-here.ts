// Serving an app on whichever runtime runs the file (Node, Bun or Deno), for processes the tests and
// benchmarks start: prints `READY <origin>`, which `startProcess` waits for.
import type { App } from "../../src/mod.ts";

declare const Bun: unknown;
declare const Deno: { env: { get(name: string): string | undefined } } | undefined;

/** An environment variable, on any of the three runtimes. */
export function envVar(name: string): string | undefined {
  if (typeof Deno !== "undefined") return Deno.env.get(name);
  return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
}

/**
 * Serves the app on a free loopback port with the runtime's adapter, and prints its origin. Returns the
 * server handle's `close()`.
 */
export async function serveHere(app: App): Promise<() => Promise<void>> {
  let server: { readonly url: URL; close(): Promise<void> };
  if (typeof Bun !== "undefined") {
    const { serve } = await import("../../src/adapters/bun.ts");
    server = await serve(app, { port: 0, hostname: "127.0.0.1" });
  } else if (typeof Deno !== "undefined") {
    const { serve } = await import("../../src/adapters/deno.ts");
    server = await serve(app, { port: 0, hostname: "127.0.0.1" });
  } else {
    const { serve } = await import("../../src/adapters/node.ts");
    server = await serve(app, { port: 0, hostname: "127.0.0.1" });
  }
  console.log(`READY ${server.url.origin}`);
  return () => server.close();
}
