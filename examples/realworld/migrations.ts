// The schema, as numbered migrations applied once each at start (in a transaction, under an advisory
// lock: two instances starting together apply them once). The same SQL on PGlite and PostgreSQL.
import type { Database } from "./db.ts";

const MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE users (
  id serial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  bio text NOT NULL DEFAULT '',
  image text NOT NULL DEFAULT ''
);
CREATE TABLE follows (
  follower_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  followed_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  PRIMARY KEY (follower_id, followed_id)
);
CREATE TABLE articles (
  id serial PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  title text NOT NULL,
  description text NOT NULL,
  body text NOT NULL,
  tag_list text[] NOT NULL DEFAULT '{}',
  author_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_author ON articles (author_id);
CREATE INDEX articles_recent ON articles (created_at DESC, id DESC);
CREATE INDEX articles_tags ON articles USING gin (tag_list);
CREATE TABLE favorites (
  user_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
  PRIMARY KEY (user_id, article_id)
);
CREATE INDEX favorites_article ON favorites (article_id);
CREATE TABLE comments (
  id serial PRIMARY KEY,
  body text NOT NULL,
  article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
  author_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_article ON comments (article_id);
`,
  },
];

/** Applies the migrations not applied yet; gives how many it applied. */
export async function migrate(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7261207)");
    await tx.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const done = new Set(
      (await tx.query<{ version: number }>("SELECT version FROM schema_migrations")).map(
        (row) => row.version,
      ),
    );
    let applied = 0;
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version) VALUES ($1)", [migration.version]);
      applied++;
    }
    return applied;
  });
}
