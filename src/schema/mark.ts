import * as v from "valibot";
import { SCALARS, type ScalarName } from "./scalars.ts";
import type { StandardSchemaV1 } from "./standard.ts";

/** Options of a file field (`t.file`). */
export interface FileOptions {
  /** The largest file accepted, in bytes (413 past it, counted as it arrives). Default: the body limit. */
  readonly maxSize?: number;
  /** The media types accepted (`image/png`, `image/*`); a part of another type is refused (400). */
  readonly types?: readonly string[];
  /** Hand the file to the handler as a stream instead of buffering it (it must be the form's last part). */
  readonly stream?: boolean;
}

/** What Portico records on a valibot schema it made: one record, in the schema's own pipe. */
export interface Mark {
  /** The scalar type a `t` helper makes. */
  readonly type?: ScalarName;
  /** The source key to read instead of the field's own name (`t.key`). */
  readonly key?: string;
  /** A file field's options (`t.file`). */
  readonly file?: FileOptions;
  /** The Standard Schema (zod, arktype…) this valibot schema runs (see `standard-reader.ts`). */
  readonly standard?: StandardSchemaV1;
}

// A symbol key: valibot's metadata keeps it, JSON Schema converters (which copy string keys) do not see it.
const MARK: unique symbol = Symbol("portico.mark");

/**
 * The pipe action that records a mark: a valibot `metadata` action (which validation skips), carrying
 * the JSON Schema hints of its scalar type alongside.
 */
export function mark<TInput>(record: Mark): v.MetadataAction<TInput, Record<string, unknown>> {
  return v.metadata<TInput, Record<string, unknown>>({
    ...(record.type && SCALARS[record.type].json),
    [MARK]: record,
  });
}

/** The mark a pipe item records, if it is one. */
export function markIn(item: unknown): Mark | undefined {
  const action = item as Partial<v.MetadataAction<unknown, Record<string, unknown>>>;
  return action.kind === "metadata" && action.type === "metadata"
    ? (action.metadata?.[MARK as unknown as string] as Mark | undefined)
    : undefined;
}

/**
 * The marks of a schema merged, looking through pipes (a pipe copies its first schema, and the inner
 * record yields to the outer): `v.pipe(t.int32(), v.minValue(1))` is still an Int32.
 */
export function markOf(schema: object): Mark | undefined {
  const pipe = (schema as { pipe?: readonly unknown[] }).pipe;
  if (pipe === undefined) return undefined;
  let merged: Mark | undefined;
  for (const item of pipe) {
    const found = item === pipe[0] && item !== schema ? markOf(item as object) : markIn(item);
    if (found !== undefined) merged = { ...merged, ...found };
  }
  return merged;
}

/**
 * The scalar type of a `t` helper left as made (its own pipe holds the type's mark), or renamed with
 * `t.key` only: a pipe that adds a check or a transform is not (valibot must then run).
 */
export function helperType(schema: object): ScalarName | undefined {
  const pipe = (schema as { pipe?: readonly unknown[] }).pipe;
  if (pipe === undefined) return undefined;
  for (const item of pipe) {
    const type = markIn(item)?.type;
    if (type !== undefined) return type;
  }
  const bare = unmarked(schema);
  return bare === schema ? undefined : helperType(bare);
}

/** The schema a pipe of marks only (`t.key` around a schema) runs: validation reads through it. */
export function unmarked(schema: object): object {
  const pipe = (schema as { pipe?: readonly unknown[] }).pipe;
  if (pipe === undefined || pipe.length < 2 || !pipe.slice(1).every((item) => markIn(item) !== undefined)) {
    return schema;
  }
  return unmarked(pipe[0] as object);
}
