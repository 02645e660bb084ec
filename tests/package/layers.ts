// The layers of src/, lowest first: what `layering.test.ts` enforces and what ARCHITECTURE.md's layer
// table must say (`architecture.test.ts`).
export const LAYERS: readonly (readonly string[])[] = [
  ["wire"],
  ["http", "schema", "fast-path", "runtime"],
  ["view"],
  ["context"],
  ["pubsub"],
  ["errors"],
  ["params"],
  ["endpoint", "ws"],
  ["router"],
  ["app"],
  ["cookie", "sse", "middleware", "openapi", "static", "otel"],
  ["client", "session"],
  ["adapters"],
];
