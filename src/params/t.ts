import * as v from "valibot";
import { objectOf } from "../schema/declared.ts";
import {
  type AnySchema,
  type Entries,
  FORBIDDEN_KEYS,
  type InferEntries,
  type InputEntries,
  type SourceDeclaration,
} from "../schema/entries.ts";
import { type FileOptions, mark } from "../schema/mark.ts";
import { EPOCH_LIMIT, INT32, INT64, type ScalarName } from "../schema/scalars.ts";
import { castText } from "./cast-text.ts";
import { parseIsoDate } from "./iso-date.ts";

const castTo =
  (typeName: ScalarName | "Array") =>
  (issue: { input: unknown }): string =>
    castText(issue.input, typeName);

/** A 32-bit signed integer (`Int32`). */
function int32(): v.GenericSchema<number, number> {
  const m = castTo("Int32");
  return v.pipe(
    v.number(m),
    v.integer(m),
    v.minValue(INT32.min, m),
    v.maxValue(INT32.max, m),
    mark({ type: "Int32" }),
  );
}

/** A 64-bit signed integer as a `bigint` (`Int64`); JSON gives it as a safe integer number. */
function int64(): v.GenericSchema<bigint | number, bigint> {
  const m = castTo("Int64");
  return v.pipe(
    v.union([v.bigint(m), v.pipe(v.number(m), v.safeInteger(m))], m),
    mark({ type: "Int64" }),
    v.transform((value: bigint | number) => BigInt(value)),
    v.minValue(INT64.min, m),
    v.maxValue(INT64.max, m),
  );
}

/** A finite 64-bit float (`Float64`). */
function float(): v.GenericSchema<number, number> {
  const m = castTo("Float64");
  return v.pipe(v.number(m), v.finite(m), mark({ type: "Float64" }));
}

/** A boolean (`Bool`): `true`/`false` in path, query and form. */
function bool(): v.GenericSchema<boolean, boolean> {
  return v.pipe(v.boolean(castTo("Bool")), mark({ type: "Bool" }));
}

/** A string (`String`). */
function string(): v.GenericSchema<string, string> {
  return v.pipe(v.string(castTo("String")), mark({ type: "String" }));
}

/** An ISO 8601 date or date-time string, as a `Date` (`Date`); without an offset it is UTC. */
function date(): v.GenericSchema<string, Date> {
  return v.pipe(
    v.string(castTo("Date")),
    mark({ type: "Date" }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const parsed = parseIsoDate(dataset.value);
      if (parsed === undefined) {
        addIssue({ message: castText(dataset.value, "Date") });
        return NEVER;
      }
      return parsed;
    }),
  );
}

/** Unix time in whole seconds, as a `Date` (`Epoch`). */
function epoch(): v.GenericSchema<number, Date> {
  const m = castTo("Epoch");
  return v.pipe(
    v.number(m),
    v.integer(m),
    v.minValue(-EPOCH_LIMIT, m),
    v.maxValue(EPOCH_LIMIT, m),
    mark({ type: "Epoch" }),
    v.transform((seconds: number) => new Date(seconds * 1000)),
  );
}

/** An array of the item type: `ids[]=1&ids[]=2`, `ids[0]=1`, `ids=1&ids=2`, or a JSON array. */
function array<TItem extends AnySchema>(
  item: TItem,
): v.ArraySchema<TItem, (issue: { input: unknown }) => string> {
  return v.array(item, castTo("Array"));
}

/** A file streamed to the handler (`t.file({ stream: true })`): read it once, with `stream()`. */
export interface StreamedFile {
  /** The file name the client gave, as a safe base name (no `/`, `\`, control character; never `..`). */
  readonly name: string;
  /**
   * The file name exactly as the client sent it (always set on the server; optional so that the typed
   * client takes a plain `File` for the field).
   */
  readonly rawName?: string;
  /** Its media type (`application/octet-stream` when the client gave none). */
  readonly type: string;
  /** Its content, as it arrives; the file's size limit and the body's apply while it is read. */
  stream(): ReadableStream<Uint8Array>;
}

/** True when a media type is in a list of accepted ones (`image/png`, `image/*`, `*\/*`). */
export function acceptsType(types: readonly string[] | undefined, type: string): boolean {
  if (types === undefined) return true;
  const media = type.split(";")[0]!.trim().toLowerCase();
  return types.some((accepted) => {
    const wanted = accepted.toLowerCase();
    return (
      wanted === media || wanted === "*/*" || (wanted.endsWith("/*") && media.startsWith(wanted.slice(0, -1)))
    );
  });
}

/** A file field of a multipart form (`File`). See {@link FileOptions}. */
function file(options?: FileOptions & { readonly stream?: false }): v.GenericSchema<Blob, File>;
/** A file field streamed to the handler (must be the form's last part). */
function file(
  options: FileOptions & { readonly stream: true },
): v.GenericSchema<Blob | StreamedFile, StreamedFile>;
function file(options: FileOptions = {}): v.GenericSchema<Blob | StreamedFile, File | StreamedFile> {
  const { maxSize, types, stream = false } = options;
  if (maxSize !== undefined && (!Number.isSafeInteger(maxSize) || maxSize < 1)) {
    throw new RangeError("t.file(): maxSize must be a positive number of bytes");
  }
  const isFile = (value: unknown): boolean =>
    stream
      ? typeof value === "object" && value !== null && typeof (value as StreamedFile).stream === "function"
      : value instanceof Blob && typeof (value as File).name === "string";
  return v.pipe(
    v.custom<File | StreamedFile>(isFile, "expected a file"),
    v.check(
      (value) => stream || maxSize === undefined || (value as File).size <= maxSize,
      `expected at most ${maxSize} bytes`,
    ),
    v.check((value) => acceptsType(types, value.type), `expected a file of type ${types?.join(" or ")}`),
    mark({ type: "File", file: { ...options, stream } }),
  );
}

/** A nested group from entries: `user[name]=…` in query/form, a nested object in JSON. */
function group<const TEntries extends Entries>(
  entries: TEntries,
): v.GenericSchema<InputEntries<TEntries>, InferEntries<TEntries>> {
  return objectOf(entries) as unknown as v.GenericSchema<InputEntries<TEntries>, InferEntries<TEntries>>;
}

/**
 * Reads the parameter from another source key than the field's name.
 *
 * @example
 * query: { userId: t.key("user_id", t.int32()) } // ?user_id=7 → params.query.userId === 7
 */
function key<TSchema extends AnySchema>(sourceKey: string, schema: TSchema): TSchema {
  if (sourceKey === "" || FORBIDDEN_KEYS.has(sourceKey))
    throw new TypeError(`Invalid source key "${sourceKey}"`);
  // A new pipe, so that the same schema may be used under other keys elsewhere.
  return v.pipe(schema, mark({ key: sourceKey })) as unknown as TSchema;
}

/** Options of a form or JSON body source. */
export interface BodyOptions {
  /** Parse the body whatever its `Content-Type`; the getter is never `undefined`; an empty body is a 400. */
  readonly require?: boolean;
  /** Read the body from a copy, so that `ctx.request.raw` can still be read afterwards. */
  readonly preserveBody?: boolean;
}

/** A form or JSON source with options, made by `t.body`. */
export interface BodySpec<
  TDeclaration extends SourceDeclaration = SourceDeclaration,
  TRequire extends boolean = boolean,
> {
  /** @ignore */
  readonly [bodyMark]: true;
  /** The source's entries or schema. */
  readonly declaration: TDeclaration;
  /** Parse the body whatever its `Content-Type`. */
  readonly require: TRequire;
  /** Keep the raw body readable after parsing. */
  readonly preserveBody: boolean;
}

/** Marks body specs. */
const bodyMark: unique symbol = Symbol.for("portico.body-spec");

/**
 * Declares a form or JSON source with options.
 *
 * @example
 * json: t.body({ user: { name: v.string(), email: v.string() } }, { require: true })
 */
function body<
  const TDeclaration extends SourceDeclaration,
  const TOptions extends BodyOptions = Record<never, never>,
>(
  declaration: TDeclaration,
  options?: TOptions,
): BodySpec<TDeclaration, TOptions["require"] extends true ? true : false> {
  return {
    [bodyMark]: true,
    declaration,
    require: (options?.require === true) as TOptions["require"] extends true ? true : false,
    preserveBody: options?.preserveBody === true,
  };
}

/** True when a source declaration was made by `t.body`. */
export function isBodySpec(value: unknown): value is BodySpec {
  return typeof value === "object" && value !== null && bodyMark in value;
}

/**
 * Parameter type helpers. Each is a valibot schema that also tells Portico how to cast the strings of
 * path, query and form sources, and what to call the type in error messages.
 *
 * @example
 * params: { path: { id: t.int32() }, query: { since: v.optional(t.date()), tags: v.optional(t.array(t.string()), []) } }
 */
export const t: {
  /** A 32-bit signed integer (`Int32`). */
  readonly int32: () => v.GenericSchema<number, number>;
  /** A 64-bit signed integer as a `bigint` (`Int64`); JSON gives it as a safe integer number. */
  readonly int64: () => v.GenericSchema<bigint | number, bigint>;
  /** A finite 64-bit float (`Float64`). */
  readonly float: () => v.GenericSchema<number, number>;
  /** A boolean (`Bool`): `true`/`false` in path, query and form. */
  readonly bool: () => v.GenericSchema<boolean, boolean>;
  /** A string (`String`). */
  readonly string: () => v.GenericSchema<string, string>;
  /** An ISO 8601 date or date-time string, as a `Date` (`Date`); without an offset it is UTC. */
  readonly date: () => v.GenericSchema<string, Date>;
  /** Unix time in whole seconds, as a `Date` (`Epoch`). */
  readonly epoch: () => v.GenericSchema<number, Date>;
  /** An array of the item type: `ids[]=1&ids[]=2`, `ids[0]=1`, `ids=1&ids=2`, or a JSON array. */
  readonly array: <TItem extends AnySchema>(
    item: TItem,
  ) => v.ArraySchema<TItem, (issue: { input: unknown }) => string>;
  /** A nested group from entries: `user[name]=…` in query/form, a nested object in JSON. */
  readonly group: <const TEntries extends Entries>(
    entries: TEntries,
  ) => v.GenericSchema<InputEntries<TEntries>, InferEntries<TEntries>>;
  /** Reads the parameter from another source key than the field's name: `t.key("user_id", t.int32())`. */
  readonly key: <TSchema extends AnySchema>(sourceKey: string, schema: TSchema) => TSchema;
  /** A file field of a multipart form: `t.file({ maxSize, types })`, or `{ stream: true }` for a stream. */
  readonly file: {
    /** A buffered `File` (a client may send any `Blob`). */
    (options?: FileOptions & { readonly stream?: false }): v.GenericSchema<Blob, File>;
    /** A file streamed to the handler (a client may send any `Blob`). */
    (options: FileOptions & { readonly stream: true }): v.GenericSchema<Blob | StreamedFile, StreamedFile>;
  };
  /** Declares a form or JSON source with options: `t.body(entries, { require: true })`. */
  readonly body: <
    const TDeclaration extends SourceDeclaration,
    const TOptions extends BodyOptions = Record<never, never>,
  >(
    declaration: TDeclaration,
    options?: TOptions,
  ) => BodySpec<TDeclaration, TOptions["require"] extends true ? true : false>;
} = Object.freeze({ int32, int64, float, bool, string, date, epoch, array, group, key, file, body });
