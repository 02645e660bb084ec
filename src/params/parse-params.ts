import type { Context } from "../context/context.ts";
import { bodyError, type ParamSource } from "../errors/param-errors.ts";
import { coerceGroup, type FailedCasts, renameKeys } from "./coerce.ts";
import { type CompiledSource, compileSource, validateSource } from "./compile-source.ts";
import type { AnySchema, Entries, InferDeclaration } from "./entries.ts";
import { parseJsonObject } from "./parse-json.ts";
import { parseNested } from "./parse-nested.ts";
import { mediaTypeOf, readBodyText } from "./read-body.ts";
import type { BodySpec } from "./t.ts";

/** A source's declaration: entries, a valibot object schema, or (form/json) `t.body(…)`. */
export type SourceParam = Entries | AnySchema;

/** The `params` of an endpoint or channel: any subset of the four sources. */
export interface ParamsDeclaration {
  /** Path parameters (`:name` in the route's pattern); cast from strings. */
  readonly path?: SourceParam;
  /** The query string; cast from strings, nested names and arrays allowed. */
  readonly query?: SourceParam;
  /** An `application/x-www-form-urlencoded` body (or any body with `t.body(…, { require: true })`). */
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

/** The declared sources, prepared once per endpoint. */
export interface CompiledParams {
  readonly sources: readonly CompiledSource[];
}

const SOURCES: readonly ParamSource[] = ["path", "query", "form", "json"];
const FORM_TYPE = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

/** Prepares an endpoint's params declaration; throws (at definition time) on a declaration it cannot read. */
export function compileParams(declaration: ParamsDeclaration): CompiledParams {
  const unknown = Object.keys(declaration).filter((key) => !SOURCES.includes(key as ParamSource));
  if (unknown.length > 0)
    throw new TypeError(`Unknown params source "${unknown[0]}": use path, query, form or json`);
  const sources: CompiledSource[] = [];
  for (const source of SOURCES) {
    const entry = declaration[source];
    if (entry !== undefined) sources.push(compileSource(source, entry));
  }
  return { sources };
}

/**
 * Parses every declared source, in order path, query, form, json; the first failing source throws.
 * Path and query parse synchronously, so params without a body are returned without a promise.
 */
export function parseParams(
  compiled: CompiledParams,
  ctx: Context,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  return parseFrom(compiled.sources, 0, {}, ctx);
}

function parseFrom(
  sources: readonly CompiledSource[],
  start: number,
  params: Record<string, unknown>,
  ctx: Context,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  for (let i = start; i < sources.length; i++) {
    const source = sources[i]!;
    const value = parseSource(source, ctx);
    if (value instanceof Promise) {
      return value.then((parsed) => {
        params[source.source] = parsed;
        return parseFrom(sources, i + 1, params, ctx);
      });
    }
    params[source.source] = value;
  }
  return params;
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
  if (!compiled.require && mediaTypeOf(ctx.request.headers.get("content-type")) !== mediaType)
    return undefined;
  const text = await readBodyText(ctx, compiled.source, compiled.preserveBody);
  if (compiled.source === "form") {
    if (compiled.require && text === "") throw bodyError("form", "Missing request body");
    return fromStrings(compiled, parseNested(text, "form", ctx.limits));
  }
  const json = parseJsonObject(text, ctx.limits.jsonDepth);
  return validateSource(compiled, compiled.plan.aliased ? renameKeys(compiled.plan, json) : json, undefined);
}
