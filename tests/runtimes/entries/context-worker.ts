// A module Worker whose app keeps request contexts (createApp({ asyncContext: true })): it needs the
// nodejs_compat flag, and says so when started without it.
import { createApp, currentContext } from "../../../src/mod.ts";

const app = createApp({ asyncContext: true });

async function requestId(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5)));
  return currentContext()?.request.id ?? "none";
}

app.get("/current", async (ctx) => ctx.response.write(await requestId()));

export default app;
