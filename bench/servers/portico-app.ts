// The Portico app for every runtime's benchmark server (bench/servers/bench-app.ts), from this tree.
import * as middleware from "../../src/middleware/mod.ts";
import * as portico from "../../src/mod.ts";
import { benchApp } from "./bench-app.ts";

export const app = benchApp(portico, middleware);
