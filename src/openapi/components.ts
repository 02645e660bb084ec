// The document's reusable parts (`components`): error envelopes and the parameter errors' payload
// under `schemas`, error answers under `responses`, the request id under `headers`, and the security
// schemes middleware declares. Each is written once and referenced (`$ref`) wherever it applies: five
// operations repeated their error envelopes in full, most of the document.
import type { HeaderDoc, SecurityScheme } from "../context/route-doc.ts";
import type { Schema } from "./json-schema.ts";

type Kind = "schemas" | "responses" | "headers" | "securitySchemes";

/** A reference to a component. */
export type Ref = { readonly $ref: string };

/** The components of one document, filled as its operations are built. */
export class Components {
  readonly #stores: Record<Kind, Map<string, { value: object; text: string }>> = {
    schemas: new Map(),
    responses: new Map(),
    headers: new Map(),
    securitySchemes: new Map(),
  };
  readonly #warn: (message: string) => void;

  constructor(warn: (message: string) => void) {
    this.#warn = warn;
  }

  /**
   * A schema under `name` (a name taken by another schema gets `name2`, `name3`…), and its reference.
   * The same schema under the same name is stored once.
   */
  schema(name: string, schema: Schema): Ref {
    return this.#store("schemas", name, schema);
  }

  /** A response object under `name` (renamed like a schema when taken), and its reference. */
  response(name: string, response: object): Ref {
    return this.#store("responses", name, response);
  }

  /** A response header stored under `name`, and its reference. */
  header(name: string, doc: HeaderDoc): Ref {
    return this.#store("headers", name, headerObject(doc));
  }

  /** A security scheme under `name`; another scheme under a name already taken is left out, with a warning. */
  securityScheme(name: string, scheme: SecurityScheme): boolean {
    const known = this.#stores.securitySchemes.get(name);
    if (known !== undefined && known.text !== JSON.stringify(scheme)) {
      this.#warn(`[portico] openapi: two middleware declare different security schemes named "${name}"`);
      return false;
    }
    this.#store("securitySchemes", name, { ...scheme });
    return true;
  }

  /** The `components` object, or `undefined` when nothing was stored. */
  toJSON(): Record<string, unknown> | undefined {
    const components: Record<string, unknown> = {};
    for (const [kind, store] of Object.entries(this.#stores)) {
      if (store.size > 0)
        components[kind] = Object.fromEntries([...store].map(([key, { value }]) => [key, value]));
    }
    return Object.keys(components).length > 0 ? components : undefined;
  }

  #store(kind: Kind, name: string, value: object): Ref {
    const store = this.#stores[kind];
    const text = JSON.stringify(value);
    let key = name;
    for (let n = 2; ; n++) {
      const known = store.get(key);
      if (known === undefined) {
        store.set(key, { value, text });
        break;
      }
      if (known.text === text) break;
      key = `${name}${n}`;
    }
    return { $ref: `#/components/${kind}/${encodeURIComponent(key)}` };
  }
}

/** An OpenAPI header object from a header's documentation. */
export function headerObject(doc: HeaderDoc): Schema {
  if (typeof doc === "string") return { description: doc, schema: { type: "string" } };
  return {
    ...(doc.description === undefined ? {} : { description: doc.description }),
    ...(doc.required ? { required: true } : {}),
    schema: doc.schema ?? { type: "string" },
  };
}
