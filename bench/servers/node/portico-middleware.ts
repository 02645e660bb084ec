// One Portico app with one middleware (or none), chosen by MIDDLEWARE, for bench/middleware.ts.
import { serve } from "../../../src/adapters/node.ts";
import {
  bodyLimit,
  compress,
  cors,
  csrf,
  etag,
  logger,
  secureHeaders,
  timeout,
} from "../../../src/middleware/mod.ts";
import { createApp, defineView, type Middleware } from "../../../src/mod.ts";

const stacks: Record<string, () => Middleware<unknown>[]> = {
  none: () => [],
  cors: () => [cors({ origin: ["https://app.example"], credentials: true })],
  csrf: () => [csrf()],
  secureHeaders: () => [secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'self'"] } })],
  etag: () => [etag()],
  compress: () => [compress()],
  logger: () => [logger({ sink: () => {} })],
  bodyLimit: () => [bodyLimit(1 << 20)],
  timeout: () => [timeout(10_000)],
  all: () => [
    logger({ sink: () => {} }),
    secureHeaders(),
    cors({ origin: ["https://app.example"], credentials: true }),
    csrf(),
    compress(),
    etag(),
    timeout(10_000),
  ],
};

const chosen = process.env.MIDDLEWARE ?? "none";
const stack = stacks[chosen];
if (!stack) throw new Error(`MIDDLEWARE must be one of ${Object.keys(stacks).join(", ")}`);

// A list of 24 items (about 2 KiB of JSON): enough for compress and etag to do their work.
const items = Array.from({ length: 24 }, (_, i) => ({
  id: i,
  name: `item ${i}`,
  tags: ["a", "b", "c"],
  price: i * 3.5,
}));
const ItemsView = defineView({ json: (list: typeof items) => ({ items: list }) });

const app = createApp();
for (const middleware of stack()) app.use(middleware);
app.get("/items", () => ItemsView(items));

const server = await serve(app, { port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" });
console.log(`READY ${server.url.origin}`);
process.on("SIGTERM", () => process.exit(0));
