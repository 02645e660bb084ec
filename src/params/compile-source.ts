import { type ParamIssue, type ParamSource, paramMessage, paramsError } from "../errors/param-errors.ts";
import { type DeclaredSchema, declared } from "../schema/declared.ts";
import type { SourceDeclaration } from "../schema/entries.ts";
import { checkPlan, type GroupPlan, type Plan } from "../schema/plan.ts";
import { type FastValidator, UNSURE } from "../schema/scalars.ts";
import { MAX_ISSUES, type SchemaIssue } from "../schema/valibot.ts";
import { castText, HIDDEN, isCastText, withoutValue } from "./cast-text.ts";
import { type FailedCasts, pathKey, toSourcePath } from "./coerce.ts";
import { isBodySpec } from "./t.ts";

/** A declared source, prepared once per endpoint. */
export interface CompiledSource {
  readonly source: ParamSource;
  /** Validates the (cast) input: the output, or the issues. */
  readonly validate: DeclaredSchema["validate"];
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
  const { plan, fast, validate } = declared(inner);
  if (plan.kind !== "group") throw new TypeError(`The ${source} params must be entries or an object schema`);
  checkPlan(plan, `${source} params`, FLAT.has(source));
  return {
    source,
    validate,
    plan,
    require: body?.require === true,
    preserveBody: body?.preserveBody === true,
    copiesJson: needsCopy(plan),
    fast,
    shadow: shadowOf(plan),
  };
}

// Sources whose values are single strings: a group or an array cannot be sent in them.
const FLAT = new Set<ParamSource>(["path", "headers", "cookies"]);
// Sources whose values may be secrets (a token, a session id): a message never shows them.
const SECRET = new Set<ParamSource>(["headers", "cookies"]);

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
  const validated = compiled.validate(input);
  if (validated.ok) {
    compiled.shadow?.(validated.value);
    return validated.value;
  }
  const issues: ParamIssue[] = [];
  const seen = new Set<string>();
  for (const issue of validated.issues) {
    if (issues.length === MAX_ISSUES) break;
    const path = toSourcePath(compiled.plan, issue.path);
    const key = pathKey(path);
    const cast = failed?.get(key);
    if (cast !== undefined) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    issues.push({ path, message: issueMessage(compiled.source, path, issue, cast) });
  }
  throw paramsError(compiled.source, issues, validated.truncated || validated.issues.length > issues.length);
}

function issueMessage(
  source: ParamSource,
  path: string[],
  issue: SchemaIssue,
  cast: { input: string; typeName: string } | undefined,
): string {
  let text: string;
  if (cast !== undefined) text = castText(SECRET.has(source) ? HIDDEN : cast.input, cast.typeName);
  else if (issue.missing) text = "is missing";
  else if (isCastText(issue.message)) text = SECRET.has(source) ? withoutValue(issue.message) : issue.message;
  else text = `is invalid: ${issue.message}`;
  if (path.length === 0) return `${source === "json" ? "JSON body" : "Parameters"} ${text}`;
  return paramMessage(source, path, text);
}
