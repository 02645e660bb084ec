// examples/realworld end to end: the same scenario (tests/examples/realworld/scenario.ts) through the
// typed client, then the RealWorld project's Postman collection through newman
// (tests/examples/realworld/postman.ts), against real servers — Node 20 (`npm run realworld`'s
// command), Node 24, Bun and Deno, each on the embedded database (PGlite in memory) and on a PostgreSQL
// server.
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { conduitCollection } from "../examples/realworld/postman.ts";
import { conduitScenario, SECRET } from "../examples/realworld/scenario.ts";
import { type PostgresServer, startPostgres } from "../services/postgres.ts";
import { root, type StartedProcess, startProcess } from "./processes.ts";
import { nodeBin } from "./targets.ts";

const deno = join(root, "node_modules", ".bin", "deno");
const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const RUNTIMES: Record<string, (env: Record<string, string>) => Promise<StartedProcess>> = {
  "Node 20": (env) => startProcess(process.execPath, ["--import", "tsx", "examples/realworld/node.ts"], env),
  "Node 24": (env) => startProcess(nodeBin(24), ["examples/realworld/node.ts"], env),
  Bun: (env) => startProcess(bun, ["run", "examples/realworld/bun.ts"], env),
  Deno: (env) =>
    startProcess(
      deno,
      ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "examples/realworld/deno.ts"],
      env,
    ),
};

let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});

for (const [runtime, start] of Object.entries(RUNTIMES)) {
  for (const database of ["PGlite", "PostgreSQL"] as const) {
    describe(`examples/realworld on ${runtime} with ${database}`, () => {
      let server: StartedProcess | undefined;
      after(async () => {
        await server?.stop();
      });
      test("every route and every error case of the spec, two users interacting", async () => {
        server = await start({
          PORT: "0",
          JWT_SECRET: SECRET,
          ...(database === "PostgreSQL" ? { DATABASE_URL: postgres.url } : {}),
        });
        await conduitScenario(server.origin);
      });
      test("the RealWorld Postman collection: every assertion holds (311 on an empty database)", async () => {
        if (server === undefined) throw new Error("the server did not start (see the test above)");
        await conduitCollection(server.origin, server.output);
      });
    });
  }
}
