// Cloudflare Workers: `export default app`.
import { app } from "../../conformance/fixture-app.ts";

export default app;
