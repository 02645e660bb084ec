// Serves the Portico app as a module Worker with Miniflare (workerd) on $PORT.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorker } from "../../../tests/runtimes/processes.ts";

const worker = await startWorker(
  join(dirname(fileURLToPath(import.meta.url)), "portico.ts"),
  Number(process.env.PORT ?? 0),
);
console.log(`READY ${worker.origin}`);
process.on("SIGTERM", () => {
  worker.stop().then(() => process.exit(0));
});
