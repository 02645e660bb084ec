/** What the `t` helpers record about a schema, for coercion and messages. */
export interface SchemaMeta {
  /** The type's name in messages (`Int32`, `Float64`, `Bool`, `Date`…). */
  readonly typeName?: string;
  /** The source key to read instead of the field's own name (`t.key`). */
  readonly key?: string;
  /** A file field's options (`t.file`). */
  readonly file?: FileOptions;
}

/** Options of a file field (`t.file`). */
export interface FileOptions {
  /** The largest file accepted, in bytes (413 past it, counted as it arrives). Default: the body limit. */
  readonly maxSize?: number;
  /** The media types accepted (`image/png`, `image/*`); a part of another type is refused (400). */
  readonly types?: readonly string[];
  /** Hand the file to the handler as a stream instead of buffering it (it must be the form's last part). */
  readonly stream?: boolean;
}

const registry = new WeakMap<object, SchemaMeta>();

/** Records metadata for a schema object. */
export function setMeta<TSchema extends object>(schema: TSchema, meta: SchemaMeta): TSchema {
  registry.set(schema, { ...registry.get(schema), ...meta });
  return schema;
}

/**
 * The metadata of a schema, looking through `v.pipe()` (whose result copies its first schema, which
 * keeps the helper's metadata) so that `v.pipe(t.int32(), v.minValue(1))` is still an Int32.
 */
export function getMeta(schema: object): SchemaMeta | undefined {
  let current: object | undefined = schema;
  let meta: SchemaMeta | undefined;
  while (current !== undefined) {
    const own = registry.get(current);
    if (own) meta = { ...own, ...meta };
    const pipe: readonly object[] | undefined = (current as { pipe?: readonly object[] }).pipe;
    const first: object | undefined = pipe?.[0];
    current = first !== undefined && first !== current ? first : undefined;
  }
  return meta;
}

/** The type name a `t` helper recorded on this very schema (not through a pipe): an unmodified helper. */
export function ownTypeName(schema: object): string | undefined {
  return registry.get(schema)?.typeName;
}
