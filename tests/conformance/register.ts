import { test } from "node:test";
import type { Client } from "./client.ts";
import { endpointCases } from "./endpoint-cases.ts";
import { routingCases } from "./routing-cases.ts";
import { websocketCases } from "./websocket-cases.ts";

/**
 * Registers the conformance suite for one target. Every target runs the HTTP cases; real servers
 * also run the websocket cases.
 */
export function registerConformance(client: () => Client): void {
  const cases = [...routingCases, ...endpointCases];
  for (const item of cases) test(item.name, () => item.run(client()));
  for (const item of websocketCases) {
    test(item.name, () => {
      const target = client();
      if (!target.server) throw new Error("websocket cases need a server");
      return item.run(target);
    });
  }
}

/** The HTTP cases only (for `app.request()`, which has no socket to upgrade). */
export function registerHttpConformance(client: Client): void {
  for (const item of [...routingCases, ...endpointCases]) test(item.name, () => item.run(client));
}
