// The RealWorld project's own API test suite — its Postman collection, run by newman as upstream runs it
// (api/run-api-tests.sh: APIURL, USERNAME, EMAIL and PASSWORD as global variables) — against a running
// examples/realworld. The collection is vendored in postman/ (its README says from where and what was
// changed). Every assertion must hold, and there must be as many as a full run makes: a run that
// skipped some (a script that threw, a request that failed) cannot pass.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import newman, { type NewmanRunSummary } from "newman";

const COLLECTION = join(import.meta.dirname, "postman", "Conduit.postman_collection.json");
/** Requests in the collection, each made once. */
const REQUESTS = 32;
/**
 * The `tests[…]` assertions a full run makes on an empty database: at least that many on any (an empty
 * list makes one, each listed article a dozen or more).
 */
const ASSERTIONS = 311;

/** Runs the collection against the API at `origin` (as a new user); `output` is the server's, for failures. */
export async function conduitCollection(origin: string, output: () => string): Promise<void> {
  const user = `u${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const summary = await new Promise<NewmanRunSummary>((resolve, reject) => {
    newman.run(
      {
        collection: JSON.parse(readFileSync(COLLECTION, "utf8")),
        globalVar: [
          { key: "APIURL", value: `${origin}/api` },
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
        `${lines.join("\n")}\n\nserver output:\n${output()}`,
    );
  }
  assert.equal(stats.requests.total, REQUESTS, "requests made");
  assert.ok(stats.assertions.total >= ASSERTIONS, `${stats.assertions.total} assertions made`);
}
