// Deno with an npm: specifier (the package comes from node_modules, installed from the tarball).
import { serve } from "npm:portico/deno";
import { app } from "./app.ts";

const server = await serve(app, { port: 0 });
console.log(`READY ${server.url.origin}`);
