import type { Context } from "../context/context.ts";
import { later, type Pending } from "../context/later.ts";
import { runSteps, type Step } from "../context/run-steps.ts";
import { bodyError, type ParamSource } from "../errors/param-errors.ts";
import { headerOf } from "../fast-path/fast-path.ts";
import { parseCookies } from "../http/cookie-header.ts";
import { mediaTypeOf } from "../http/media-type.ts";
import type { AnySchema, Entries, InferDeclaration } from "../schema/entries.ts";
import type { StandardSchemaV1 } from "../schema/standard.ts";
import { TOKEN } from "../wire/contract.ts";
import { coerceGroup, type FailedCasts, jsonInput } from "./coerce.ts";
import { type CompiledSource, compileSource, validateSource } from "./compile-source.ts";
import { readMultipartForm } from "./multipart-form.ts";
import { parseJsonObject } from "./parse-json.ts";
import { parseNested } from "./parse-nested.ts";
import { readBodyText } from "./read-body.ts";
import type { BodySpec } from "./t.ts";

/** A source's declaration: entries, a valibot object schema, or (form/json) `t.body(…)`. */
// `<unknown, unknown>` written out: a reference that leaves its defaults out is deferred in a type alias,
// and counts as generic, so every contextual type holding it was instantiated again (each `t.body(…)`).
export type SourceParam = Entries | AnySchema | StandardSchemaV1<unknown, unknown>;

/** The `params` of an endpoint or channel: any subset of the six sources. */
export interface ParamsDeclaration {
  /** Path parameters (`:name` in the route's pattern); cast from strings. */
  readonly path?: SourceParam;
  /** The query string; cast from strings, nested names and arrays allowed. */
  readonly query?: SourceParam;
  /**
   * Request headers, by name (matched in any case; read as declared); cast from strings, one value
   * each (several of a name arrive joined by `, `). A failure never shows the value sent.
   */
  readonly headers?: SourceParam;
  /** Cookies of the request, by name (case-sensitive, percent-decoded); cast from strings. */
  readonly cookies?: SourceParam;
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

const SOURCES: readonly ParamSource[] = ["path", "query", "headers", "cookies", "form", "json"];

const FORM_TYPE = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";
const MULTIPART_TYPE = "multipart/form-data";

/** Prepares an endpoint's params declaration; throws (at definition time) on a declaration it cannot read. */
export function compileParams(declaration: ParamsDeclaration): CompiledParams {
  const unknown = Object.keys(declaration).filter((key) => !SOURCES.includes(key as ParamSource));
  if (unknown.length > 0)
    throw new TypeError(
      `Unknown params source "${unknown[0]}": use path, query, headers, cookies, form or json`,
    );
  const steps: Step<Parsing>[] = [];
  let pathKeys: string[] = [];
  for (const source of SOURCES) {
    const entry = declaration[source];
    if (entry === undefined) continue;
    const compiled = compileSource(source, entry);
    const keys = compiled.plan.fields.map((field) => field.key);
    if (source === "path") pathKeys = keys;
    if (source === "headers" || source === "cookies") for (const key of keys) checkToken(source, key);
    steps.push(sourceStep(compiled));
  }
  return { steps, pathKeys };
}

/**
 * The step that parses an endpoint's or a channel's params into its `params`: every declared source,
 * in order path, query, headers, cookies, form, json; the first failing source throws. Path and query parse
 * synchronously, so params without a body are set without a promise.
 */
export function paramsStep(
  compiled: CompiledParams,
): Step<{ readonly context: Context; params: Record<string, unknown> | undefined }> {
  return (instance) => {
    const parsing: Parsing = { context: instance.context, params: {} };
    const pending = runSteps(compiled.steps, parsing);
    if (pending === undefined) instance.params = parsing.params;
    else
      return pending.next(() => {
        instance.params = parsing.params;
      });
  };
}

function sourceStep(compiled: CompiledSource): Step<Parsing> {
  const source = compiled.source;
  switch (source) {
    case "path":
      return (parsing) => {
        parsing.params.path = fromStrings(compiled, parsing.context.request.pathParams);
      };
    case "query":
      return (parsing) => {
        const { request, limits } = parsing.context;
        parsing.params.query = fromStrings(compiled, parseNested(request.query, "query", limits));
      };
    case "headers": {
      const keys = compiled.plan.fields.map((field) => field.key);
      return (parsing) => {
        const { request } = parsing.context;
        const input: Record<string, string> = {};
        for (const key of keys) {
          const value = request.header(key);
          if (value !== null) input[key] = value;
        }
        parsing.params.headers = fromStrings(compiled, input);
      };
    }
    case "cookies": {
      const keys = compiled.plan.fields.map((field) => field.key);
      return (parsing) => {
        const sent = parseCookies(parsing.context.request.header("cookie"));
        const input: Record<string, string> = {};
        for (const key of keys) if (sent[key] !== undefined) input[key] = sent[key];
        parsing.params.cookies = fromStrings(compiled, input);
      };
    }
    default:
      return (parsing) => fromBody(compiled, parsing, source === "form" ? FORM_TYPE : JSON_TYPE);
  }
}

function checkToken(source: "headers" | "cookies", name: string): void {
  if (!TOKEN.test(name))
    throw new TypeError(
      `${source} params: "${name}" is not a ${source === "headers" ? "header" : "cookie"} name (use letters, digits and !#$%&'*+-.^_\`|~)`,
    );
}

function fromStrings(compiled: CompiledSource, input: object): unknown {
  const failed: FailedCasts = new Map();
  return validateSource(compiled, coerceGroup(compiled.plan, input, [], failed), failed);
}

// The body's text is parsed, validated and set as a continuation of its read (params/read-body.ts):
// no async frame and no promise of its own, so a JSON body's one hop is the runtime reader's.
function fromBody(compiled: CompiledSource, parsing: Parsing, mediaType: string): Pending<void> | undefined {
  const { context: ctx, params } = parsing;
  const source = compiled.source;
  const contentType = headerOf(ctx.request.source, "content-type");
  const given = mediaTypeOf(contentType);
  if (source === "form" && given === MULTIPART_TYPE) {
    return later(readMultipartForm(ctx, compiled, contentType!), (form) => {
      params.form = fromStrings(compiled, form);
    });
  }
  if (!compiled.require && given !== mediaType) {
    params[source] = undefined;
    return undefined;
  }
  return readBodyText(ctx, source, compiled.preserveBody).next((text) => {
    if (source === "form") {
      if (compiled.require && text === "") throw bodyError("form", "Missing request body");
      params.form = fromStrings(compiled, parseNested(text, "form", ctx.limits));
      return;
    }
    const json = parseJsonObject(text, ctx.limits.jsonDepth);
    params.json = validateSource(
      compiled,
      compiled.copiesJson ? jsonInput(compiled.plan, json) : json,
      undefined,
    );
  });
}
