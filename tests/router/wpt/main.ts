// Prints the WPT report of the runtime that runs this file (Node 22+ type stripping, Deno, Bun).
import { readFileSync } from "node:fs";
import { runWpt } from "./run-wpt.ts";

const data = JSON.parse(readFileSync(new URL("./urlpatterntestdata.json", import.meta.url), "utf8"));
console.log(`REPORT ${JSON.stringify(await runWpt(data))}`);
