import type * as v from "valibot";
import type { AnySchema } from "./entries.ts";

/** One issue of a failed validation: where (field names, indices), and what. */
export interface SchemaIssue {
  readonly path: readonly unknown[];
  /** The value was absent (a required key, a missing source). */
  readonly missing: boolean;
  /** The schema's message, without the value valibot's default messages echo. */
  readonly message: string;
}

/** A validation's answer: the output, or the issues (stopped soon after {@link MAX_ISSUES}). */
export type Validated =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[]; readonly truncated: boolean };

/** The most issues a validation reports; it stops soon after. */
export const MAX_ISSUES = 20;

/** Validates an input against a valibot schema (a Standard Schema it runs included). */
export function validate(schema: AnySchema, input: unknown): Validated {
  config.issues = 0;
  const dataset = schema["~run"]({ value: input }, config as unknown as v.Config<v.BaseIssue<unknown>>);
  if (dataset.issues === undefined) return { ok: true, value: dataset.value };
  // A few past the cap at most (a pipe ends its step): the caller keeps the first MAX_ISSUES it reports.
  const issues = dataset.issues.map((issue) => ({
    path: issue.path?.map((item) => item.key) ?? [],
    missing: issue.input === undefined && issue.kind === "schema",
    message: withoutReceived(issue),
  }));
  return { ok: false, issues, truncated: config.issues >= MAX_ISSUES };
}

// A 1 MiB body of 500,000 wrong items would otherwise keep the event loop for a second and answer
// with 60 MiB of issues. valibot reads the config's `lang` once per issue it adds, and `abortEarly`
// whenever it decides whether a loop goes on: a config that counts the first and answers the second
// with "stop" from the 20th issue on ends the walk there (pinned by `tests/app/edges.test.ts`: of
// 10,000 wrong items, 20 reported and at most 25 checked). `safeParse` would copy the config and read
// each field once, so the schema's `~run` is called directly. Validation is synchronous and never
// nested, so one config object serves every call.
class CountingConfig {
  issues = 0;
  readonly message: undefined = undefined;
  readonly abortPipeEarly: undefined = undefined;
  get lang(): undefined {
    this.issues++;
    return undefined;
  }
  get abortEarly(): boolean {
    return this.issues >= MAX_ISSUES;
  }
}
const config = new CountingConfig();

// valibot's default messages end with the value received ("… but received \"hunter2\""), which may be a
// password or a token: Portico says what was expected instead. A message the app wrote stays as is.
const DEFAULT_MESSAGE = /^Invalid (\w+(?: \w+)*): (?:Expected [\s\S]* but r|R)eceived [\s\S]*$/;

function withoutReceived(issue: v.BaseIssue<unknown>): string {
  const match = DEFAULT_MESSAGE.exec(issue.message);
  if (match === null) return issue.message;
  const what = match[1] === "type" ? "" : `${match[1]} `;
  return issue.expected === null
    ? `unexpected ${what.trim() || "value"}`
    : `expected ${what}${issue.expected}`;
}
