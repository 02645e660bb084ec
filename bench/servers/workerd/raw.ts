// The limit on workerd: a module Worker with the hand-written handler the Bun and Deno raw servers use.
import { rawFetch } from "../raw-fetch.ts";

export default { fetch: rawFetch };
