import * as v from "valibot";
import { type AnySchema, type Entries, FORBIDDEN_KEYS, type SourceDeclaration } from "./entries.ts";
import { compileFastValidator } from "./fast-validate.ts";
import { hasFiles, type Plan, planOf } from "./plan.ts";
import type { FastValidator } from "./scalars.ts";
import { isStandardSchema } from "./standard.ts";
import { fromStandard } from "./standard-reader.ts";
import { type Validated, validate } from "./valibot.ts";

/**
 * The schema boundary: what Portico asks of a declared parameter source or error payload, answered here
 * once per declaration, whatever its library. The params reader and the OpenAPI document ask this (the
 * client reads the static types, in `entries.ts`; the JSON Schema converter reads the marks, `mark.ts`;
 * a view's schema is read by `serializer.ts`). Two implementations answer it: valibot's, native
 * (`plan.ts`, `fast-validate.ts`, `valibot.ts`), and Standard Schema's (`standard-reader.ts`, which runs
 * zod, arktype… inside a valibot schema and reads them from their library's JSON Schema).
 */
export interface DeclaredSchema {
  /** The valibot schema that validates (and the OpenAPI converter reads). */
  readonly schema: AnySchema;
  /** How its value is read from string sources: casts, optional keys, source keys, file fields. */
  readonly plan: Plan;
  /** Whether it reads a file anywhere (a form with one is multipart only). */
  readonly files: boolean;
  /** The validator for the common case, when it has one (it answers a success, or `UNSURE`). */
  readonly fast: FastValidator | undefined;
  /** Validates an input: the output, or the issues (stopped soon after 20). */
  validate(input: unknown): Validated;
}

/** Reads a declaration: entries, a valibot schema, or any Standard Schema. */
export function declared(declaration: SourceDeclaration): DeclaredSchema {
  const schema = schemaOf(declaration);
  const plan = planOf(schema);
  return {
    schema,
    plan,
    files: hasFiles(plan),
    fast: compileFastValidator(schema),
    validate: (input) => validate(schema, input),
  };
}

/** The schema itself if valibot's, a Standard Schema made to run as one, else `undefined`. */
function asSchema(value: unknown): AnySchema | undefined {
  if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema") {
    return value as AnySchema;
  }
  return isStandardSchema(value) ? fromStandard(value) : undefined;
}

/** Turns entries (plain objects are nested groups) into a valibot object schema. */
export function objectOf(entries: Entries): v.ObjectSchema<v.ObjectEntries, undefined> {
  const out: Record<string, AnySchema> = {};
  for (const [name, value] of Object.entries(entries)) {
    if (FORBIDDEN_KEYS.has(name)) throw new TypeError(`"${name}" cannot be a parameter name`);
    out[name] = asSchema(value) ?? objectOf(value as Entries);
  }
  return v.object(out);
}

// A source declaration (entries or a schema, valibot's or any Standard Schema) as one valibot schema.
function schemaOf(declaration: SourceDeclaration): AnySchema {
  return asSchema(declaration) ?? (objectOf(declaration as Entries) as unknown as AnySchema);
}
