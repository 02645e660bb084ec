// Deno, the other documented way: `deno serve` with `export default app`.
import { app } from "../../conformance/fixture-app.ts";

export default app;
