// Prints the oracle report of the runtime that runs this file, against its own URLPattern (Node 24,
// Deno, Bun).
import { compare, type URLPatternClass } from "./oracle.ts";

const native = (globalThis as { URLPattern?: URLPatternClass }).URLPattern;
if (native === undefined) throw new Error("this runtime has no URLPattern");
console.log(`REPORT ${JSON.stringify(compare(native))}`);
