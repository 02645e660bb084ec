// The RealWorld project's own API test suite — its Postman collection, run by newman as upstream runs it
// (api/run-api-tests.sh: APIURL, USERNAME, EMAIL and PASSWORD as global variables) — against
// examples/realworld on Node (`npm run realworld`'s command) with PGlite in memory, a fresh database per
// run. The collection is vendored in realworld/postman/ (its README says from where and what was changed).
// Every assertion must hold, and there must be as many as a full run makes: a run that skipped some (a
// script that threw, a request that failed) cannot pass.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import newman, { type NewmanRunSummary } from "newman";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { freePort } from "../services/brokers.ts";

const COLLECTION = join(import.meta.dirname, "realworld", "postman", "Conduit.postman_collection.json");
/** Requests in the collection, each made once. */
const REQUESTS = 32;
/** The `tests[…]` assertions a full run makes (an empty list makes one, a listed article a dozen or more). */
const ASSERTIONS = 311;

let server: StartedProcess | undefined;
after(async () => {
  await server?.stop();
});

test("the RealWorld Postman collection passes against examples/realworld (Node, PGlite)", {
  timeout: 120_000,
}, async () => {
  server = await startProcess(
    process.execPath,
    ["--import", "tsx", join(root, "examples", "realworld", "node.ts")],
    {
      PORT: String(await freePort()),
      JWT_SECRET: "postman-collection-secret-of-32-bytes-at-least",
      // PGlite in memory whatever the environment says.
      DATABASE_URL: "",
      DATA_DIR: "",
    },
  );
  const user = `u${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const summary = await new Promise<NewmanRunSummary>((resolve, reject) => {
    newman.run(
      {
        collection: JSON.parse(readFileSync(COLLECTION, "utf8")),
        globalVar: [
          { key: "APIURL", value: `${server!.origin}/api` },
          { key: "USERNAME", value: user },
          { key: "EMAIL", value: `${user}@mail.com` },
          { key: "PASSWORD", value: "password" },
        ],
        delayRequest: 0,
        timeoutRequest: 10_000,
        reporters: [],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  assert.equal(summary.error, undefined, `newman stopped: ${summary.error}`);
  const { stats, failures } = summary.run;
  if (failures.length > 0) {
    const lines = failures.map(
      (failure) =>
        `  ${[failure.parent?.name, failure.source?.name].filter(Boolean).join(" / ")}: ` +
        `${failure.error.test ?? failure.at} — ${failure.error.name}: ${failure.error.message}`,
    );
    assert.fail(
      `${failures.length} failure(s) in ${stats.assertions.total} assertions, ${stats.requests.total} requests:\n` +
        `${lines.join("\n")}\n\nserver output:\n${server.output()}`,
    );
  }
  assert.equal(stats.requests.total, REQUESTS, "requests made");
  assert.equal(stats.assertions.total, ASSERTIONS, "assertions made");
});
