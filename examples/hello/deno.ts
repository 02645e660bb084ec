// Deno: `deno serve --allow-net --allow-env examples/hello/deno.ts`
// (or `Deno.serve(app.fetch)` in a script run with `deno run`).
import { app } from "./app.ts";

export default app;
