// What a websocket route declares, described once for both documents: the OpenAPI document keeps it
// under its path's `x-portico-websocket` (OpenAPI has no place for a socket), and `asyncapi()` makes
// an AsyncAPI 3.0 channel of it. Its upgrade request's parameters, its close codes, and its messages.
import type { RouteInfo } from "../app/route-info.ts";
import { isConnectable } from "../context/handler.ts";
import type { ErrorClass } from "../errors/define-error.ts";
import type { ParamsDeclaration } from "../params/parse-params.ts";
import { declared } from "../schema/declared.ts";
import type { SourceDeclaration } from "../schema/entries.ts";
import { PARAM_ERROR_NAMES } from "../wire/contract.ts";

export { WEBSOCKET_EXTENSION } from "../wire/contract.ts";

import { declaredErrors } from "./error-responses.ts";
import { jsonSchemaOf, type Schema } from "./json-schema.ts";
import { parametersOf } from "./operation.ts";
import { templates } from "./path-templates.ts";

/** A websocket route, as both documents describe it. */
export interface WebsocketDescription {
  /** The path template (`/chat/{room}`). */
  readonly template: string;
  /** OpenAPI parameters of the upgrade request (path, query, headers, cookies). */
  readonly parameters: Record<string, unknown>[];
  /** What each close code the server may send means, by code. */
  readonly closeCodes: Record<string, string>;
  /** The JSON Schemas of the declared messages. */
  readonly messages: { readonly in?: Schema; readonly out?: Schema };
}

type ChannelShape = {
  readonly params?: ParamsDeclaration;
  readonly errors?: Record<string, ErrorClass<unknown>>;
  readonly messages?: { readonly in?: SourceDeclaration; readonly out?: SourceDeclaration };
};

/** Describes a websocket route (a channel's declarations, or a block's bare socket). */
export function describeWebsocket(route: RouteInfo): WebsocketDescription {
  const channel = isConnectable(route.handler) ? (route.handler as unknown as ChannelShape) : undefined;
  const params = channel?.params ?? {};
  const variant = templates(route.path)[0]!;
  const closeCodes: Record<string, string> = {
    1000: "Closed normally",
    1001: "The server is going away",
    1008: "The client reads too slowly, or sends faster than the channel answers",
    1009: "A message over the size limit",
    1011: "An unexpected error",
  };
  const codes = new Map<number, string[]>();
  const add = (code: number, name: string) => codes.set(code, [...(codes.get(code) ?? []), name]);
  for (const source of Object.keys(params) as (keyof ParamsDeclaration)[])
    add(4000, PARAM_ERROR_NAMES[source]);
  // A declared error closes with its code when it is an app's code (3000–4999), else with 4000.
  for (const error of declaredErrors(channel?.errors))
    add(error.code >= 3000 && error.code <= 4999 ? error.code : 4000, error.name);
  for (const [code, names] of codes) closeCodes[code] = names.join(", ");
  const messages: { in?: Schema; out?: Schema } = {};
  if (channel?.messages?.in !== undefined) {
    messages.in = jsonSchemaOf(declared(channel.messages.in).schema);
    closeCodes[1007] = "A message that is not JSON or fails its schema (the reason says why)";
  }
  if (channel?.messages?.out !== undefined)
    messages.out = jsonSchemaOf(declared(channel.messages.out).schema);
  return {
    template: variant.template,
    parameters: parametersOf(variant.names, params),
    closeCodes: Object.fromEntries(Object.entries(closeCodes).sort(([a], [b]) => Number(a) - Number(b))),
    messages,
  };
}
