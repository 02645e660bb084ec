// The AsyncAPI 3.0 document of an app's websocket routes, from the same declarations as `openapi()`:
// each route a channel (its address, parameters, the ws binding's query and headers, its close codes),
// its declared messages, and an operation for each direction (the app receives `in`, sends `out`).
import type { RouteInfo } from "../app/route-info.ts";
import { mergeDocs, type RouteDoc } from "../context/route-doc.ts";
import type { Schema } from "./json-schema.ts";
import { sentence } from "./openapi.ts";
import { describeWebsocket } from "./websockets.ts";

/** Options of {@link asyncapi}. */
export interface AsyncApiOptions {
  /** The document's `info` (title and version required). */
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  /** Where the app listens, by name: `{ production: { host: "api.example", protocol: "wss" } }`. */
  readonly servers?: Readonly<
    Record<string, { readonly host: string; readonly protocol: "ws" | "wss"; readonly pathname?: string }>
  >;
}

/** An AsyncAPI 3.0 document, as a plain object. */
export type AsyncApiDocument = Record<string, unknown> & {
  readonly asyncapi: "3.0.0";
  readonly channels: Record<string, Record<string, unknown>>;
  readonly operations: Record<string, Record<string, unknown>>;
};

/**
 * The AsyncAPI 3.0 document of an app's websocket routes: a channel per route (named by the route's
 * name, else by its path), with its path and query parameters, the headers of its upgrade, its close
 * codes (`x-close-codes`), and — for a channel that declares them with `messages: { in, out }` — its
 * messages, which the app receives and sends (operations `<name>.receive` and `<name>.send`).
 *
 * @example
 * const events = asyncapi(app, { info: { title: "Chat", version: "1.0.0" } });
 * app.get("/asyncapi.json", () => Response.json(events));
 */
export function asyncapi(
  app: { routes(): readonly RouteInfo[] },
  options: AsyncApiOptions,
): AsyncApiDocument {
  const channels: Record<string, Record<string, unknown>> = {};
  const operations: Record<string, Record<string, unknown>> = {};
  for (const route of app.routes()) {
    if (!route.websocket) continue;
    const doc = mergeDocs([route.doc, (route.handler as { doc?: RouteDoc }).doc]);
    if (doc.hidden) continue;
    const socket = describeWebsocket(route);
    let key = route.name ?? channelKey(socket.template);
    for (let n = 2; key in channels; n++) key = `${route.name ?? channelKey(socket.template)}${n}`;
    const byPlace = (place: string) => socket.parameters.filter((parameter) => parameter.in === place);
    const messages: Record<string, unknown> = {};
    for (const direction of ["in", "out"] as const) {
      const payload = socket.messages[direction];
      if (payload === undefined) continue;
      messages[direction] = {
        name: `${key}.${direction}`,
        title: direction === "in" ? "What a client sends" : "What the app sends",
        contentType: "application/json",
        payload,
      };
    }
    channels[key] = {
      address: socket.template,
      ...(doc.summary === undefined && route.name === undefined
        ? {}
        : { title: doc.summary ?? sentence(route.name!) }),
      ...(doc.description === undefined ? {} : { description: doc.description }),
      ...(doc.tags?.length ? { tags: doc.tags.map((name) => ({ name })) } : {}),
      ...(byPlace("path").length > 0
        ? {
            parameters: Object.fromEntries(
              byPlace("path").map((parameter) => [
                parameter.name,
                parameterObject(parameter.schema as Schema),
              ]),
            ),
          }
        : {}),
      ...(Object.keys(messages).length > 0 ? { messages } : {}),
      bindings: {
        ws: {
          method: "GET",
          ...bindingSchema("query", byPlace("query")),
          ...bindingSchema("headers", byPlace("header")),
          bindingVersion: "0.1.0",
        },
      },
      "x-close-codes": socket.closeCodes,
    };
    for (const [direction, action] of [
      ["in", "receive"],
      ["out", "send"],
    ] as const) {
      if (!(direction in messages)) continue;
      operations[`${key}.${action}`] = {
        action,
        channel: { $ref: `#/channels/${encodeURIComponent(key)}` },
        messages: [{ $ref: `#/channels/${encodeURIComponent(key)}/messages/${direction}` }],
      };
    }
  }
  return {
    asyncapi: "3.0.0",
    info: { ...options.info },
    ...(options.servers ? { servers: structuredClone(options.servers) } : {}),
    defaultContentType: "application/json",
    channels,
    operations,
  };
}

// `/chat/{room}` → `chat-room`: a channel's key when its route has no name.
function channelKey(template: string): string {
  return (
    template
      .replace(/[{}]/g, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "root"
  );
}

// AsyncAPI's parameter object has no schema: what it can say of one (its enum, default, description).
function parameterObject(schema: Schema): Record<string, unknown> {
  const {
    enum: values,
    default: fallback,
    description,
  } = schema as {
    enum?: unknown[];
    default?: unknown;
    description?: string;
  };
  const type =
    typeof schema.type === "string" ? `${schema.type}${schema.format ? ` (${schema.format})` : ""}` : "";
  return {
    ...(values?.every((value) => typeof value === "string") ? { enum: values } : {}),
    ...(typeof fallback === "string" ? { default: fallback } : {}),
    ...(description !== undefined || type !== "" ? { description: description ?? `A ${type}` } : {}),
  };
}

// The ws binding's `query` or `headers`: an object schema of the parameters given in that place.
function bindingSchema(
  key: "query" | "headers",
  parameters: Record<string, unknown>[],
): Record<string, unknown> {
  if (parameters.length === 0) return {};
  return {
    [key]: {
      type: "object",
      properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    },
  };
}
