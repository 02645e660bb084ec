import * as v from "valibot";
import { type ParamIssue, type ParamSource, paramMessage, paramsError } from "../errors/param-errors.ts";
import { type AnySchema, type Entries, isSchema, type SourceDeclaration } from "../schema/entries.ts";
import { castText, isCastText } from "./cast-text.ts";
import { type FailedCasts, pathKey, toSourcePath } from "./coerce.ts";
import { checkPlan, type GroupPlan, planOf } from "./plan.ts";
import { isBodySpec, toObjectSchema } from "./t.ts";

/** A declared source, prepared once per endpoint. */
export interface CompiledSource {
  readonly source: ParamSource;
  readonly schema: AnySchema;
  readonly plan: GroupPlan;
  readonly require: boolean;
  readonly preserveBody: boolean;
}

/** Prepares a source declaration (entries, an object schema, or `t.body(…)`). */
export function compileSource(source: ParamSource, declaration: unknown): CompiledSource {
  const body = isBodySpec(declaration) ? declaration : undefined;
  const inner: SourceDeclaration = body ? body.declaration : (declaration as SourceDeclaration);
  if (body && source !== "form" && source !== "json")
    throw new TypeError(`t.body() is only for form and json, not ${source}`);
  const schema: AnySchema = isSchema(inner)
    ? inner
    : (toObjectSchema(inner as Entries) as unknown as AnySchema);
  const plan = planOf(schema);
  if (plan.kind !== "group") throw new TypeError(`The ${source} params must be entries or an object schema`);
  checkPlan(plan, `${source} params`, source === "path");
  return { source, schema, plan, require: body?.require === true, preserveBody: body?.preserveBody === true };
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
  const result = v.safeParse(compiled.schema, input);
  if (result.success) return result.output;
  const issues: ParamIssue[] = [];
  const seen = new Set<string>();
  for (const issue of result.issues ?? []) {
    const path = toSourcePath(compiled.plan, issue.path?.map((item) => item.key) ?? []);
    const key = pathKey(path);
    const cast = failed?.get(key);
    if (cast !== undefined) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    issues.push({ path, message: describe(compiled.source, path, issue, cast) });
  }
  throw paramsError(compiled.source, issues);
}

function describe(
  source: ParamSource,
  path: string[],
  issue: v.BaseIssue<unknown>,
  cast: { input: string; typeName: string } | undefined,
): string {
  let text: string;
  if (cast !== undefined) text = castText(cast.input, cast.typeName);
  else if (issue.input === undefined && issue.kind === "schema") text = "is missing";
  else if (isCastText(issue.message)) text = issue.message;
  else text = `is invalid: ${issue.message}`;
  if (path.length === 0) return `${source === "json" ? "JSON body" : "Parameters"} ${text}`;
  return paramMessage(source, path, text);
}
