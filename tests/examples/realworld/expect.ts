// The checks the RealWorld scenario makes of each answer.
import assert from "node:assert/strict";

/** What a client call gives back, as these checks read it. */
export type Result = {
  ok: boolean;
  status: number;
  error?: { name: string; payload: unknown };
  data?: unknown;
};

/** Checks a call failed with this status and declared error, in the spec's error body. */
export function fails(result: Result, status: number, name: string, what: string) {
  assert.equal(result.ok, false, `${what}: succeeded`);
  assert.equal(result.status, status, `${what}: status`);
  assert.equal(result.error?.name, name, `${what}: error name`);
  const body = result.error?.payload as { errors?: { body?: unknown } };
  assert.ok(
    Array.isArray(body?.errors?.body) && body.errors.body.length > 0,
    `${what}: the spec's error body`,
  );
}
/** Checks a call succeeded with this status; gives its data. */
export function data<T>(result: { ok: boolean; status: number; data?: T }, status: number, what: string): T {
  assert.equal(
    result.ok,
    true,
    `${what}: failed with ${result.status} ${JSON.stringify((result as Result).error)}`,
  );
  assert.equal(result.status, status, `${what}: status`);
  return result.data as T;
}
