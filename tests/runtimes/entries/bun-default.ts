// Bun, the documented one-liner: `Bun.serve(app)` (the port comes from $PORT).
import { app } from "../../conformance/fixture-app.ts";

declare const Bun: { serve(app: unknown): { url: URL } };

const server = Bun.serve(app);
console.log(`READY ${server.url.origin}`);
