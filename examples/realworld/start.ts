// Starting the app from the environment: DATABASE_URL (a PostgreSQL server) or DATA_DIR (PGlite in a
// directory) or nothing (PGlite in memory), migrations applied, JWT_SECRET (made up when absent, so that
// tokens last as long as the process).
import { conduit } from "./app.ts";
import { openDatabase } from "./db.ts";
import { migrate } from "./migrations.ts";

/** The app, on the database the environment names, migrated when it starts. */
export async function fromEnvironment(env: (name: string) => string | undefined) {
  const db = await openDatabase({ url: env("DATABASE_URL"), dataDir: env("DATA_DIR") });
  let secret = env("JWT_SECRET");
  if (secret === undefined) {
    secret = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    console.warn("JWT_SECRET is not set: tokens are signed with a key made for this process only");
  }
  const where =
    db.kind === "server"
      ? "PostgreSQL"
      : env("DATA_DIR")
        ? `PGlite in ${env("DATA_DIR")}`
        : "PGlite in memory";
  const built = conduit({ db, jwtSecret: secret, log: env("LOG") === "1" });
  // Migrations run before the server listens (serve() awaits onStart hooks; a failure stops it there);
  // the pool (or PGlite) closes with the app: every server handle's close(), SIGTERM included.
  built.app.onStart(async () => {
    const applied = await migrate(db);
    console.log(`Database: ${where} (${applied} migration${applied === 1 ? "" : "s"} applied)`);
  });
  built.app.onClose(() => db.close());
  return built;
}
