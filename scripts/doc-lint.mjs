// `deno doc --lint` on every entry point in deno.json: every export documented, no private type in a
// public signature (what JSR's score and users' editors rely on).
//
// One kind of report is set aside: `private-type-ref` to a type that Portico does not declare, i.e. a
// dependency's public type such as valibot's `GenericSchema`. Deno 2.9.5 reports those by mistake
// (denoland/deno#27364, fixed upstream by denoland/deno#34339 in a later release); re-exporting them
// would only make valibot's own undocumented internals fail instead.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { exports } = JSON.parse(readFileSync(join(root, "deno.json"), "utf8"));
const deno = join(root, "node_modules", ".bin", "deno");
const result = spawnSync(deno, ["doc", "--lint", ...Object.values(exports)], {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, NO_COLOR: "1" },
});
if (result.error) throw result.error;

const sources = readdirSync(join(root, "src"), { recursive: true })
  .filter((file) => file.endsWith(".ts"))
  .map((file) => readFileSync(join(root, "src", file), "utf8"))
  .join("\n");
const declaredHere = (name) =>
  new RegExp(`\\b(?:type|interface|class|function|const|let|enum)\\s+${name}\\b`).test(sources);

const reports = result.stderr.split(/\n(?=error\[)/).filter((block) => block.startsWith("error["));
const kept = reports.filter((block) => {
  const match = /^error\[private-type-ref\]: .* references private type '([^']+)'/.exec(block);
  return match === null || declaredHere(match[1]);
});
if (kept.length > 0) {
  console.error(kept.join("\n"));
  console.error(`deno doc --lint: ${kept.length} problem(s)`);
  process.exit(1);
}
const ignored = reports.length - kept.length;
console.log(
  `deno doc --lint: ${Object.keys(exports).length} entry points clean` +
    (ignored > 0 ? ` (${ignored} references to dependencies' types set aside: denoland/deno#27364)` : ""),
);
