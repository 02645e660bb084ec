import type * as v from "valibot";
import { compileSerializer, type Serializer } from "../schema/serializer.ts";

/**
 * The renderers of a view, keyed by format (`json`, `text`, `html`, `xml`, `csv`) or by media type: each
 * turns the view's data into a body (JSON renderers return data to serialise, others text or bytes).
 */
export type ViewRenderers<TData> = { readonly [format: string]: (data: TData) => unknown };

/** One renderer, compiled: the media type it answers and the `Content-Type` it sends. */
export interface CompiledRenderer {
  readonly mediaType: string;
  readonly contentType: string;
  readonly json: boolean;
  /** The `json` renderer of a view with a schema: what it returns is sent as the schema declares. */
  readonly serialize?: Serializer | undefined;
  readonly render: (data: never) => unknown;
}

/** The renderers of a view, compiled. */
interface ViewDefinition {
  /** The renderers in declaration order; the first is the default. */
  readonly renderers: readonly CompiledRenderer[];
  /** The media types, in the same order (what content negotiation chooses from). */
  readonly mediaTypes: readonly string[];
  /** The shape of the JSON rendering, when declared (the OpenAPI document and the client use it). */
  readonly schema: v.GenericSchema | undefined;
  /** Whether the JSON rendering is checked against the schema (`strict: true`). */
  readonly strict: boolean;
}

/** A view declared with the shape of its JSON rendering: `json` must return a value of that shape. */
export type SchemaViewRenderers<TData, TSchema extends v.GenericSchema> = {
  /**
   * The shape of the JSON rendering (valibot): documented, checked against `json`'s return type, and
   * what is sent — only the declared fields of each declared object, whatever else the data holds.
   */
  readonly schema: TSchema;
  /**
   * Also check each JSON rendering against the schema (development and tests): an undeclared field, or
   * a value the schema refuses, is a 500 that names it (logged). Default `false`.
   */
  readonly strict?: boolean;
  /** The JSON rendering: data to serialise, of the declared shape (only the declared fields are sent). */
  readonly json: (data: TData) => v.InferInput<TSchema>;
} & { readonly [format: string]: ((data: TData) => unknown) | TSchema | boolean | undefined };

/** What `defineView` returns: call it with data to get a view. `TJson` is the declared JSON shape. */
export interface ViewConstructor<TData, TJson = unknown> {
  /** Makes a view of this data. */
  (data: TData): View<TData, TJson>;
  /** The media types this view renders, in declaration order (the first is the default). */
  readonly mediaTypes: readonly string[];
  /** The declared shape of the JSON rendering, if any. */
  readonly schema: v.GenericSchema | undefined;
  /** @ignore */
  readonly [viewMark]: ViewDefinition;
}

/** A value to render for the client, made by a view constructor. */
export interface View<TData = unknown, TJson = unknown> {
  /** The data the view renders. */
  readonly data: TData;
  /** @ignore The declared JSON shape (types only). */
  readonly "~json"?: TJson;
  /** @ignore */
  readonly [viewMark]: ViewDefinition;
}

/** Marks views and view constructors; the value is the view's compiled renderers. */
export const viewMark: unique symbol = Symbol.for("portico.view");

const FORMATS: Readonly<Record<string, readonly [mediaType: string, contentType: string]>> = {
  json: ["application/json", "application/json"],
  text: ["text/plain", "text/plain; charset=utf-8"],
  html: ["text/html", "text/html; charset=utf-8"],
  xml: ["application/xml", "application/xml; charset=utf-8"],
  csv: ["text/csv", "text/csv; charset=utf-8"],
};

/**
 * Declares a view: how one kind of data is rendered in each format the client may ask for.
 * The renderer is picked by the request's `Accept`; the first one declared is the default.
 *
 * @example
 * const UserView = defineView({
 *   json: (u: { id: number; name: string }) => u,
 *   text: (u) => `${u.id} ${u.name}`,
 * });
 * return UserView({ id: 1, name: "Ada" });
 */
export function defineView<TData, TSchema extends v.GenericSchema>(
  renderers: SchemaViewRenderers<TData, TSchema>,
): ViewConstructor<TData, v.InferInput<TSchema>>;
/**
 * Declares a view without a declared JSON shape (the OpenAPI document then says nothing of its body).
 *
 * @example
 * const Hello = defineView({ text: (name: string) => `Hello, ${name}` });
 */
export function defineView<TData>(renderers: ViewRenderers<TData>): ViewConstructor<TData>;
export function defineView<TData>(
  renderers: ViewRenderers<TData> | SchemaViewRenderers<TData, v.GenericSchema>,
): ViewConstructor<TData> {
  const { schema, strict, ...formats } = renderers as {
    schema?: unknown;
    strict?: unknown;
  } & ViewRenderers<TData>;
  if (schema !== undefined && (typeof schema !== "object" || schema === null || !("~standard" in schema))) {
    throw new TypeError("defineView: schema must be a valibot schema");
  }
  if (schema !== undefined && typeof formats.json !== "function") {
    throw new TypeError("defineView: a schema describes the JSON rendering; declare json too");
  }
  if (strict !== undefined && (typeof strict !== "boolean" || schema === undefined)) {
    throw new TypeError("defineView: strict is true or false, beside a schema");
  }
  const serialize = schema === undefined ? undefined : compileSerializer(schema);
  const compiled = Object.entries(formats).map(([format, render]) => ({
    ...compileRenderer(format, render),
    ...(format === "json" && { serialize }),
  }));
  if (compiled.length === 0) throw new TypeError("defineView needs at least one renderer");
  const definition: ViewDefinition = Object.freeze({
    renderers: Object.freeze(compiled),
    mediaTypes: Object.freeze(compiled.map((r) => r.mediaType)),
    schema: schema as v.GenericSchema | undefined,
    strict: strict === true,
  });
  const prototype = Object.create(null) as object;
  Object.defineProperty(prototype, viewMark, { value: definition });
  const make = ((data: TData): View<TData> => {
    const view = Object.create(prototype) as { data: TData };
    view.data = data;
    return view as View<TData>;
  }) as ViewConstructor<TData>;
  Object.defineProperties(make, {
    mediaTypes: { value: definition.mediaTypes, enumerable: true },
    schema: { value: definition.schema, enumerable: true },
    [viewMark]: { value: definition },
  });
  return make;
}

/** True when `value` is a view made by a view constructor. */
export function isView(value: unknown): value is View {
  return typeof value === "object" && value !== null && viewMark in value;
}

function compileRenderer(format: string, render: (data: never) => unknown): CompiledRenderer {
  if (typeof render !== "function") throw new TypeError(`View renderer "${format}" must be a function`);
  const known = FORMATS[format];
  if (known) return { mediaType: known[0], contentType: known[1], json: format === "json", render };
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(format)) {
    throw new TypeError(
      `Unknown view format "${format}": use json, text, html, xml, csv or a media type such as "application/yaml"`,
    );
  }
  const mediaType = format.toLowerCase();
  const json = mediaType === "application/json" || mediaType.endsWith("+json");
  const contentType = json || !mediaType.startsWith("text/") ? mediaType : `${mediaType}; charset=utf-8`;
  return { mediaType, contentType, json, render };
}
