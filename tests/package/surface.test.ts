import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

// Whatever an entry point exports is a promise to users. These lists change only on purpose: a name
// that appears or disappears fails here until the list (and the CHANGELOG) says so.
const SURFACE: Record<string, { readonly values: readonly string[]; readonly types: readonly string[] }> = {
  ".": {
    values: [
      "App",
      "FormBodyError",
      "HttpError",
      "JSONBodyError",
      "ParamsError",
      "PathParamsError",
      "QueryParamsError",
      "Router",
      "createApp",
      "createContext",
      "createRouter",
      "defaultLimits",
      "defineChannel",
      "defineEndpoint",
      "defineError",
      "defineRoutes",
      "defineView",
      "html",
      "HtmlString",
      "isHttpError",
      "isLocalPath",
      "isView",
      "raw",
      "readBody",
      "t",
    ],
    types: [
      "PublishOptions",
      "PubSubDriver",
      "PubSubStats",
      "TopicMessage",
      "FileOptions",
      "StreamedFile",
      "MayBeOmitted",
      "StandardInput",
      "StandardIssue",
      "StandardJsonSchema",
      "StandardOutput",
      "StandardProps",
      "StandardResult",
      "StandardSchemaV1",
      "StandardTypes",
      "NamespaceCallback",
      "ScopeErrorHandler",
      "ScopeNotFoundHandler",
      "DeclaredView",
      "RouteEntry",
      "RouteInfo",
      "RouteOptions",
      "Routes",
      "RoutesOptions",
      "SchemaViewRenderers",
      "ViewCallResult",
      "ViewDeclaration",
      "ViewOutcome",
      "AnySchema",
      "AppOptions",
      "BlockHandler",
      "BodyOptions",
      "BodySpec",
      "BunWebSocket",
      "BunWebSocketHandlers",
      "CallResult",
      "Channel",
      "ChannelDefinition",
      "ChannelHelpers",
      "ChannelInstance",
      "Connectable",
      "Context",
      "CreateContextOptions",
      "Endpoint",
      "EndpointCallback",
      "EndpointDefinition",
      "EndpointHelpers",
      "EndpointInstance",
      "EndpointResult",
      "Entries",
      "ErrorClass",
      "ErrorClasses",
      "ErrorDeclaration",
      "ErrorDeclarations",
      "ErrorHandler",
      "ErrorOptions",
      "ExecutionContext",
      "Handler",
      "InferDeclaration",
      "InferEntries",
      "InferParams",
      "Limits",
      "Logger",
      "Method",
      "Middleware",
      "NotFoundHandler",
      "ParamErrorPayload",
      "ParamIssue",
      "ParamSource",
      "ParamsDeclaration",
      "PayloadOf",
      "ReadBodyOptions",
      "RedirectOptions",
      "Register",
      "RegisteredEnv",
      "RegisteredState",
      "RequestIdOptions",
      "RequestInfo",
      "ResponseBody",
      "ResponseState",
      "ResponseTransform",
      "Runnable",
      "Socket",
      "SocketHandler",
      "SocketMessage",
      "SocketReadyState",
      "SourceDeclaration",
      "SourceParam",
      "TrustProxyOptions",
      "View",
      "ViewConstructor",
      "ViewRenderers",
      "WsHandler",
    ],
  },
  "./node": {
    values: ["serve", "toNodeHandler"],
    types: ["FetchApp", "NodeHandler", "ServeOptions", "ServerHandle"],
  },
  "./bun": { values: ["serve"], types: ["BunApp", "BunServeOptions", "BunServerHandle"] },
  "./deno": { values: ["serve"], types: ["DenoApp", "DenoServeOptions", "DenoServerHandle"] },
  "./workers": {
    values: ["channelHost", "forwardTo", "toWorker"],
    types: [
      "ChannelHostClass",
      "DurableObjectNamespace",
      "DurableObjectState",
      "ExecutionContext",
      "HibernatableWebSocket",
      "HostedApp",
      "WorkerFetch",
      "WorkersApp",
    ],
  },
  "./cookie": {
    values: ["deleteCookie", "getCookie", "getSignedCookie", "setCookie", "setSignedCookie"],
    types: ["CookieContext", "CookieOptions", "CookieSecrets"],
  },
  "./sse": { values: ["sse"], types: ["SSEOptions", "SSEStream", "ServerSentEvent"] },
  "./middleware": {
    values: [
      "CrossSiteRequestRefused",
      "HandlerTimeout",
      "NONCE",
      "PayloadTooLarge",
      "PreconditionFailed",
      "bodyLimit",
      "compress",
      "cors",
      "cspNonce",
      "csrf",
      "etag",
      "logger",
      "secureHeaders",
      "timeout",
    ],
    types: [
      "CompressOptions",
      "CorsOptions",
      "CspSource",
      "CsrfOptions",
      "DeclaringMiddleware",
      "Encoding",
      "EtagOptions",
      "LogEntry",
      "LoggerOptions",
      "SecureHeadersOptions",
    ],
  },
  "./openapi": {
    values: ["SCALAR_VERSION", "docsPage", "openapi"],
    types: ["DocsPageOptions", "OpenApiDocument", "OpenApiOptions", "Schema"],
  },
  "./pubsub/nats": {
    values: ["natsPubSub"],
    types: ["NatsPubSubOptions"],
  },
  "./pubsub/redis": {
    values: ["redisPubSub"],
    types: ["RedisPubSubOptions"],
  },
  "./client": {
    values: ["createClient"],
    types: [
      "CallInput",
      "CallResult",
      "Client",
      "ClientError",
      "ClientMethod",
      "ClientOptions",
      "DataOf",
      "DeclaredErrors",
      "ErrorsOf",
      "InputEntries",
      "InputOf",
      "IsRequired",
      "MayLeaveOut",
      "MiddlewareErrors",
      "OptionalSchema",
      "ParamErrorName",
      "ParamErrors",
      "RoutesShape",
      "SourceInput",
      "UndeclaredError",
    ],
  },
};

const root = fileURLToPath(new URL("../../", import.meta.url));
const entries: Record<string, string> = JSON.parse(readFileSync(`${root}deno.json`, "utf8")).exports;

test("every entry point has a surface list, and every list an entry point", () => {
  assert.deepEqual(Object.keys(entries).sort(), Object.keys(SURFACE).sort());
});

test("each entry point exports exactly its listed names (types included)", () => {
  const files = Object.values(entries).map((file) => `${root}${file}`);
  const program = ts.createProgram(files, {
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  for (const [entry, file] of Object.entries(entries)) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(`${root}${file}`)!)!;
    const names = checker.getExportsOfModule(module).map((symbol) => symbol.name);
    const listed = [...SURFACE[entry]!.values, ...SURFACE[entry]!.types];
    assert.deepEqual(names.sort(), listed.sort(), `exports of ${entry}`);
  }
});

test("at run time, each entry point exports exactly its listed values", async () => {
  for (const [entry, file] of Object.entries(entries)) {
    const module: object = await import(`${root}${file}`);
    assert.deepEqual(Object.keys(module).sort(), [...SURFACE[entry]!.values].sort(), `values of ${entry}`);
  }
});
