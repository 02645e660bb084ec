import assert from "node:assert/strict";
import { test } from "node:test";
import type { Client } from "./client.ts";
import { endpointCases } from "./endpoint-cases.ts";
import { type Case, routingCases } from "./routing-cases.ts";
import { websocketCases } from "./websocket-cases.ts";

/**
 * Registers the conformance suite for one target: the HTTP cases, and on real servers the websocket
 * cases, then a last test that reports the target's pass count in the runner's output.
 */
export function registerConformance(target: string, client: () => Client): void {
  register(target, [...routingCases, ...endpointCases, ...websocketCases], () => {
    const resolved = client();
    if (!resolved.server) throw new Error("websocket cases need a server");
    return resolved;
  });
}

/** The HTTP cases only (for `app.request()`, which has no socket to upgrade). */
export function registerHttpConformance(target: string, client: Client): void {
  register(target, [...routingCases, ...endpointCases], () => client);
}

function register(target: string, cases: readonly Case[], client: () => Client): void {
  let passed = 0;
  for (const item of cases) {
    test(item.name, async () => {
      await item.run(client());
      passed++;
    });
  }
  test(`${target}: every conformance case passed`, (t) => {
    t.diagnostic(`${target}: ${passed} of ${cases.length} conformance cases passed`);
    assert.equal(passed, cases.length);
  });
}
