// The RealWorld ("Conduit") API on Portico: every route of the spec under /api, the spec's error body and
// its 422 for invalid input, JWT authentication (`Authorization: Token <jwt>`), PostgreSQL (embedded or a
// server), and the OpenAPI document at /api/openapi.json. `conduit()` builds it on a database; node.ts,
// bun.ts and deno.ts serve it.
import { createApp, defineRoutes } from "portico";
import { cors, logger } from "portico/middleware";
import { openapi } from "portico/openapi";
import { articleRoutes } from "./articles.ts";
import { authFor, conduitErrors } from "./auth.ts";
import { commentRoutes } from "./comments.ts";
import type { Database } from "./db.ts";
import { profileRoutes } from "./profiles.ts";
import { userRoutes } from "./users.ts";

/** What the app is built on. */
export interface ConduitOptions {
  readonly db: Database;
  /** Signs and checks the tokens (at least 32 bytes). */
  readonly jwtSecret: string;
  /** One JSON line per request on the console. */
  readonly log?: boolean;
}

/** The routes of the spec, on a database and a secret: mount them under /api, type a client with them. */
export function conduitRoutes(db: Database, jwtSecret: string) {
  const auth = authFor(jwtSecret);
  return defineRoutes(
    {
      ...userRoutes(db, auth),
      ...profileRoutes(db, auth),
      ...articleRoutes(db, auth),
      ...commentRoutes(db, auth),
    },
    { doc: {} },
  );
}

/** The routes' type, for `createClient<ConduitApi>()`. */
export type ConduitApi = ReturnType<typeof conduitRoutes>;

/** The app: the routes under /api, the spec's errors, CORS for browser front ends, the document. */
export function conduit(options: ConduitOptions) {
  const api = conduitRoutes(options.db, options.jwtSecret);
  const app = createApp({ errors: { format: "json", body: conduitErrors, paramsStatus: 422 } });
  if (options.log) app.use(logger());
  app.use(cors({ origin: "*", exposeHeaders: ["Portico-Error"] }));
  app.mount("/api", api);
  const document = openapi(app, {
    info: { title: "RealWorld Conduit API on Portico", version: "1.1.0" },
    servers: [{ url: "/" }],
  });
  app.get("/api/openapi.json", () => Response.json(document));
  return { app, api, document };
}
