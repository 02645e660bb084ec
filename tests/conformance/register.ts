import assert from "node:assert/strict";
import { test } from "node:test";
import type { Client } from "./client.ts";
import type { Case } from "./suite.ts";
import { TOPICS } from "./topics.ts";

/**
 * Registers the conformance suite for one target (every case, websockets included: a real server),
 * then a last test that reports the target's pass count in the runner's output.
 */
export function registerConformance(target: string, client: () => Client): void {
  register(
    target,
    TOPICS.flatMap((topic) => topic.cases),
    client,
  );
}

/** The cases that need no socket (for `app.request()`, which has none to upgrade). */
export function registerHttpConformance(target: string, client: Client): void {
  register(
    target,
    TOPICS.flatMap((topic) => topic.cases.filter((c) => c.needsServer !== true)),
    () => client,
  );
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
