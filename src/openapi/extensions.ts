/**
 * On a path parameter that may hold slashes (a wildcard, `*` or `+`): the client keeps them unencoded.
 * An OpenAPI specification extension, shared by the document and the client.
 */
export const MULTI_SEGMENT = "x-portico-multi-segment";
