// A route's method is a registered one by name, or the app's own spelled with customMethod(): a typo
// is a type error (and a setup error: tests/router/methods.test.ts).
import { createApp, customMethod, defineEndpoint, defineRoutes } from "../../src/mod.ts";

const Ping = defineEndpoint({ call: () => {} });
const app = createApp();

app.route("GET", "/a", () => {});
app.route(["PROPFIND", "QUERY"], "/b", () => {});
app.route(customMethod("PURGE"), "/c", () => {});
// @ts-expect-error a typo of GET is not a method
app.route("GTE", "/d", () => {});
// @ts-expect-error neither is a lower-case spelling (the table is upper case)
app.route("get", "/e", () => {});

defineRoutes({
  ping: ["GET", "/ping", Ping],
  purge: [customMethod("PURGE"), "/cache", Ping],
  report: ["REPORT", "/report", Ping],
});
defineRoutes({
  // @ts-expect-error a typo in a routes object
  ping: ["GTE", "/ping", Ping],
});
