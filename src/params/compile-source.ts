import type * as v from "valibot";
import { type ParamIssue, type ParamSource, paramMessage, paramsError } from "../errors/param-errors.ts";
import type { AnySchema, Entries, SourceDeclaration } from "../schema/entries.ts";
import { castText, isCastText } from "./cast-text.ts";
import { type FailedCasts, pathKey, toSourcePath } from "./coerce.ts";
import { compileFastValidator, type FastValidator, UNSURE } from "./fast-validate.ts";
import { checkPlan, type GroupPlan, type Plan, planOf } from "./plan.ts";
import { asSchema } from "./standard-schema.ts";
import { isBodySpec, toObjectSchema } from "./t.ts";

/** A declared source, prepared once per endpoint. */
export interface CompiledSource {
  readonly source: ParamSource;
  readonly schema: AnySchema;
  readonly plan: GroupPlan;
  readonly require: boolean;
  readonly preserveBody: boolean;
  /**
   * JSON bodies are copied into objects without inherited keys, and renamed for `t.key`, only when
   * that changes anything: when a declared key is renamed or spelled like a member of
   * `Object.prototype` (`toString`…), whose absence would otherwise read the inherited function.
   */
  readonly copiesJson: boolean;
  /** The compiled validator for the common case (valibot runs when it is unsure, or absent). */
  readonly fast: FastValidator | undefined;
  /**
   * Gives the validated output an own `undefined` for each absent declared field spelled like a
   * member of `Object.prototype` (validators build plain objects, where it would read the inherited
   * function); `undefined` when no field is spelled so.
   */
  readonly shadow: ((output: unknown) => void) | undefined;
}

/** Prepares a source declaration (entries, an object schema, or `t.body(…)`). */
export function compileSource(source: ParamSource, declaration: unknown): CompiledSource {
  const body = isBodySpec(declaration) ? declaration : undefined;
  const inner: SourceDeclaration = body ? body.declaration : (declaration as SourceDeclaration);
  if (body && source !== "form" && source !== "json")
    throw new TypeError(`t.body() is only for form and json, not ${source}`);
  const schema: AnySchema =
    (asSchema(inner) as AnySchema | undefined) ?? (toObjectSchema(inner as Entries) as unknown as AnySchema);
  const plan = planOf(schema);
  if (plan.kind !== "group") throw new TypeError(`The ${source} params must be entries or an object schema`);
  checkPlan(plan, `${source} params`, source === "path");
  return {
    source,
    schema,
    plan,
    require: body?.require === true,
    preserveBody: body?.preserveBody === true,
    copiesJson: needsCopy(plan),
    fast: compileFastValidator(schema),
    shadow: shadowOf(plan),
  };
}

const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

function needsCopy(plan: Plan): boolean {
  if (plan.kind === "array") return needsCopy(plan.item);
  if (plan.kind !== "group") return false;
  return plan.fields.some(
    ({ field, key, plan: child }) => key !== field || INHERITED.has(key) || needsCopy(child),
  );
}

function shadowOf(plan: Plan): ((output: unknown) => void) | undefined {
  if (plan.kind === "array") {
    const item = shadowOf(plan.item);
    return item && ((output) => Array.isArray(output) && output.forEach(item));
  }
  if (plan.kind !== "group") return undefined;
  const inherited = plan.fields.filter(({ field }) => INHERITED.has(field)).map(({ field }) => field);
  const nested = plan.fields.flatMap(({ field, plan: child }) => {
    const shadow = shadowOf(child);
    return shadow === undefined ? [] : [{ field, shadow }];
  });
  if (inherited.length === 0 && nested.length === 0) return undefined;
  return (output) => {
    if (typeof output !== "object" || output === null || !Object.isExtensible(output)) return;
    const record = output as Record<string, unknown>;
    for (const field of inherited) if (!Object.hasOwn(record, field)) record[field] = undefined;
    for (const { field, shadow } of nested) if (Object.hasOwn(record, field)) shadow(record[field]);
  };
}

/**
 * Validates a source's (cast) input against its schema; returns the output or throws the source's
 * parameter error with every issue.
 */
export function validateSource(
  compiled: CompiledSource,
  input: unknown,
  failed: FailedCasts | undefined,
): unknown {
  if (compiled.fast !== undefined) {
    const output = compiled.fast(input);
    if (output !== UNSURE) {
      compiled.shadow?.(output);
      return output;
    }
  }
  config.issues = 0;
  const dataset = compiled.schema["~run"](
    { value: input },
    config as unknown as v.Config<v.BaseIssue<unknown>>,
  );
  if (dataset.issues === undefined) {
    compiled.shadow?.(dataset.value);
    return dataset.value;
  }
  const stopped = config.issues >= MAX_ISSUES;
  const issues: ParamIssue[] = [];
  const seen = new Set<string>();
  for (const issue of dataset.issues) {
    if (issues.length === MAX_ISSUES) break;
    const path = toSourcePath(compiled.plan, issue.path?.map((item) => item.key) ?? []);
    const key = pathKey(path);
    const cast = failed?.get(key);
    if (cast !== undefined) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    issues.push({ path, message: issueMessage(compiled.source, path, issue, cast) });
  }
  throw paramsError(compiled.source, issues, stopped || dataset.issues.length > issues.length);
}

/** The most issues a parameter error reports; validation stops soon after. */
const MAX_ISSUES = 20;

// A 1 MiB body of 500,000 wrong items would otherwise keep the event loop for a second and answer
// with 60 MiB of issues. valibot reads the config's `lang` once per issue it adds, and `abortEarly`
// whenever it decides whether a loop goes on: a config that counts the first and answers the second
// with "stop" from the 20th issue on ends the walk there. (`safeParse` would copy the config and read
// each field once, so the schema's `~run` is called directly.) Validation is synchronous and never
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

function issueMessage(
  source: ParamSource,
  path: string[],
  issue: v.BaseIssue<unknown>,
  cast: { input: string; typeName: string } | undefined,
): string {
  let text: string;
  if (cast !== undefined) text = castText(cast.input, cast.typeName);
  else if (issue.input === undefined && issue.kind === "schema") text = "is missing";
  else if (isCastText(issue.message)) text = issue.message;
  else text = `is invalid: ${withoutReceived(issue)}`;
  if (path.length === 0) return `${source === "json" ? "JSON body" : "Parameters"} ${text}`;
  return paramMessage(source, path, text);
}

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
