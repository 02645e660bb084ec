// The database: PostgreSQL, embedded (PGlite, in memory or in a data directory) or a server
// (`DATABASE_URL`, through `pg`). Both speak the same SQL and take the same `query(text, params)`, so
// the app's queries and migrations are written once; this file is the only one that knows which.

/** What the app runs its SQL on: one statement with `$1…` parameters, the rows back. */
export interface Queryable {
  query<TRow>(text: string, params?: readonly unknown[]): Promise<TRow[]>;
  /** Runs several statements without parameters (a migration). */
  exec(sql: string): Promise<void>;
}

/** The app's database. */
export interface Database extends Queryable {
  /** Runs `work` in a transaction, on one connection. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Which it is, for what the app prints. */
  readonly kind: "embedded" | "server";
}

/** Where the data is: a PostgreSQL URL, else PGlite in a directory, else PGlite in memory. */
export interface DatabaseOptions {
  readonly url?: string | undefined;
  readonly dataDir?: string | undefined;
}

/** Opens the database (nothing applied yet: see `migrate`). */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) return server(options.url);
  return embedded(options.dataDir);
}

async function embedded(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  const on = (target: Pick<typeof db, "query" | "exec">): Queryable => ({
    query: async (text, params) => (await target.query(text, params as unknown[])).rows as never,
    exec: async (sql) => {
      await target.exec(sql);
    },
  });
  return {
    ...on(db),
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    close: () => db.close(),
    kind: "embedded",
  };
}

async function server(url: string): Promise<Database> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server dropped is replaced, not a crash.
  pool.on("error", () => {});
  const on = (target: Pick<typeof pool, "query">): Queryable => ({
    query: async (text, params) => (await target.query(text, params as unknown[])).rows,
    exec: async (sql) => {
      await target.query(sql);
    },
  });
  return {
    ...on(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(on(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    kind: "server",
  };
}
