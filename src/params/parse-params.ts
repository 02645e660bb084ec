import type { Context } from "../context/context.ts";
import { runSteps, type Step } from "../context/run-steps.ts";
import { bodyError, type ParamSource } from "../errors/param-errors.ts";
import { headerOf } from "../fast-path/fast-path.ts";
import { mediaTypeOf } from "../http/media-type.ts";
import type { AnySchema, Entries, InferDeclaration } from "../schema/entries.ts";
import { coerceGroup, type FailedCasts, jsonInput } from "./coerce.ts";
import { type CompiledSource, compileSource, validateSource } from "./compile-source.ts";
import { readMultipartForm } from "./multipart-form.ts";
import { parseJsonObject } from "./parse-json.ts";
import { parseNested } from "./parse-nested.ts";
import { readBodyText } from "./read-body.ts";
import type { BodySpec } from "./t.ts";

/** A source's declaration: entries, a valibot object schema, or (form/json) `t.body(…)`. */
export type SourceParam = Entries | AnySchema;

/** The `params` of an endpoint or channel: any subset of the four sources. */
export interface ParamsDeclaration {
  /** Path parameters (`:name` in the route's pattern); cast from strings. */
  readonly path?: SourceParam;
  /** The query string; cast from strings, nested names and arrays allowed. */
  readonly query?: SourceParam;
  /**
   * An `application/x-www-form-urlencoded` or `multipart/form-data` body (or any body with
   * `t.body(…, { require: true })`); files are declared with `t.file()`.
   */
  readonly form?: SourceParam | BodySpec;
  /** An `application/json` body; values are not cast. */
  readonly json?: SourceParam | BodySpec;
}

/** The parsed params: one getter per declared source; `form`/`json` may be `undefined` unless required. */
export type InferParams<TParams extends ParamsDeclaration> = {
  readonly [K in keyof TParams & ParamSource]: K extends "form" | "json"
    ? TParams[K] extends BodySpec<infer TInner, infer TRequire>
      ? TRequire extends true
        ? InferDeclaration<TInner>
        : InferDeclaration<TInner> | undefined
      : InferDeclaration<TParams[K]> | undefined
    : InferDeclaration<TParams[K]>;
};

/** The declared sources, prepared once per endpoint: one parsing step per source. */
export interface CompiledParams {
  readonly steps: readonly Step<Parsing>[];
  /** The source keys of the declared path params (a route's pattern must have each). */
  readonly pathKeys: readonly string[];
}

interface Parsing {
  readonly context: Context;
  readonly params: Record<string, unknown>;
}

const SOURCES: readonly ParamSource[] = ["path", "query", "form", "json"];
const FORM_TYPE = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";
const MULTIPART_TYPE = "multipart/form-data";

/** Prepares an endpoint's params declaration; throws (at definition time) on a declaration it cannot read. */
export function compileParams(declaration: ParamsDeclaration): CompiledParams {
  const unknown = Object.keys(declaration).filter((key) => !SOURCES.includes(key as ParamSource));
  if (unknown.length > 0)
    throw new TypeError(`Unknown params source "${unknown[0]}": use path, query, form or json`);
  const steps: Step<Parsing>[] = [];
  let pathKeys: string[] = [];
  for (const source of SOURCES) {
    const entry = declaration[source];
    if (entry === undefined) continue;
    const compiled = compileSource(source, entry);
    if (source === "path") pathKeys = compiled.plan.fields.map((field) => field.key);
    steps.push(sourceStep(compiled));
  }
  return { steps, pathKeys };
}

/**
 * Parses every declared source, in order path, query, form, json; the first failing source throws.
 * Path and query parse synchronously, so params without a body are returned without a promise.
 */
function parseParams(
  compiled: CompiledParams,
  ctx: Context,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const parsing: Parsing = { context: ctx, params: {} };
  const pending = runSteps(compiled.steps, parsing);
  return pending === undefined ? parsing.params : pending.then(() => parsing.params);
}

/** The step that parses an endpoint's or a channel's params into its `params`. */
export function paramsStep(
  compiled: CompiledParams,
): Step<{ readonly context: Context; params: Record<string, unknown> | undefined }> {
  return (instance) => {
    const parsed = parseParams(compiled, instance.context);
    if (!(parsed instanceof Promise)) instance.params = parsed;
    else
      return parsed.then((params) => {
        instance.params = params;
      });
  };
}

function sourceStep(compiled: CompiledSource): Step<Parsing> {
  const source = compiled.source;
  return (parsing) => {
    const value = parseSource(compiled, parsing.context);
    if (!(value instanceof Promise)) parsing.params[source] = value;
    else
      return value.then((parsed) => {
        parsing.params[source] = parsed;
      });
  };
}

function parseSource(compiled: CompiledSource, ctx: Context): unknown | Promise<unknown> {
  switch (compiled.source) {
    case "path":
      return fromStrings(compiled, ctx.request.pathParams);
    case "query":
      return fromStrings(compiled, parseNested(ctx.request.query, "query", ctx.limits));
    case "form":
      return fromBody(compiled, ctx, FORM_TYPE);
    case "json":
      return fromBody(compiled, ctx, JSON_TYPE);
  }
}

function fromStrings(compiled: CompiledSource, input: object): unknown {
  const failed: FailedCasts = new Map();
  return validateSource(compiled, coerceGroup(compiled.plan, input, [], failed), failed);
}

async function fromBody(compiled: CompiledSource, ctx: Context, mediaType: string): Promise<unknown> {
  const contentType = headerOf(ctx.request.source, "content-type");
  const given = mediaTypeOf(contentType);
  if (compiled.source === "form" && given === MULTIPART_TYPE) {
    return fromStrings(compiled, await readMultipartForm(ctx, compiled, contentType!));
  }
  if (!compiled.require && given !== mediaType) return undefined;
  const text = await readBodyText(ctx, compiled.source, compiled.preserveBody);
  if (compiled.source === "form") {
    if (compiled.require && text === "") throw bodyError("form", "Missing request body");
    return fromStrings(compiled, parseNested(text, "form", ctx.limits));
  }
  const json = parseJsonObject(text, ctx.limits.jsonDepth);
  return validateSource(compiled, compiled.copiesJson ? jsonInput(compiled.plan, json) : json, undefined);
}
