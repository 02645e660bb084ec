// workerd: the WPT report of a Worker, as the answer to any request.
import { runWpt } from "./run-wpt.ts";
import data from "./urlpatterntestdata.json";

export default {
  fetch: async (): Promise<Response> =>
    Response.json(await runWpt(data as unknown as Parameters<typeof runWpt>[0])),
};
