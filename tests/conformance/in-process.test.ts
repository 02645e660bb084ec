import { describe } from "node:test";
import { inProcessClient } from "./client.ts";
import { app } from "./fixture-app.ts";
import { registerHttpConformance } from "./register.ts";

describe("conformance through app.request()", () => {
  registerHttpConformance("app.request()", inProcessClient(app));
});
