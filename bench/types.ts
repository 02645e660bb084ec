// What the typed client costs the type checker: generated apps of 25, 100, 200 and 400 endpoints,
// each with path, query and JSON params, a declared error with a payload and a declared view, and the
// client used on every route (narrowing data and the error union) — Portico (defineRoutes +
// createClient, from the built .d.ts, as installed) beside the same app in Hono (chained routes with
// @hono/valibot-validator + hc). `tsc --extendedDiagnostics` per app; writes TYPES.md.
//   npx tsx bench/types.ts            (TYPES_SIZES=25,200 measures only those sizes, printed and written)
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./contestants.ts";
import { writePage } from "./report.ts";

const SIZES = (process.env.TYPES_SIZES ?? "25,100,200,400").split(",").map(Number);
const work = join(root, "bench", ".work", "types");
const tsc = join(root, "node_modules", ".bin", "tsc");

function porticoApp(n: number): string {
  const lines = [
    `import * as v from "valibot";`,
    `import { defineEndpoint, defineRoutes, defineView, t } from "portico";`,
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `const V${i} = defineView({ schema: v.object({ id: v.number(), name${i}: v.string() }), json: (d: { id: number; name: string }) => ({ id: d.id, name${i}: d.name }) });`,
      `const E${i} = defineEndpoint({`,
      `  params: { path: { id: t.int32() }, query: { q${i}: v.optional(v.string()) }, json: t.body({ name${i}: v.string() }, { require: true }) },`,
      `  errors: { NotFound${i}: { code: 404, payload: { id: t.int32() } } },`,
      `  view: V${i},`,
      `  call(ep) {`,
      `    if (ep.params.path.id < 0) throw new ep.errors.NotFound${i}({ id: ep.params.path.id });`,
      `    return V${i}({ id: ep.params.path.id, name: ep.params.json.name${i} });`,
      `  },`,
      `});`,
    );
  }
  lines.push(
    "export const api = defineRoutes({",
    ...Array.from({ length: n }, (_, i) => `  r${i}: ["POST", "/r${i}/:id", E${i}],`),
    "});",
  );
  return lines.join("\n");
}

function porticoClient(n: number): string {
  const lines = [
    `import { createClient } from "portico/client";`,
    `import type { api } from "./app.ts";`,
    `const client = createClient<typeof api>({ baseUrl: "http://localhost/api" });`,
    "export async function use(): Promise<number> {",
    "  let total = 0;",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  const r${i} = await client.r${i}({ path: { id: ${i} }, query: { q${i}: "x" }, json: { name${i}: "n" } });`,
      `  if (r${i}.ok) total += r${i}.data.id + r${i}.data.name${i}.length;`,
      `  else if (r${i}.error.name === "NotFound${i}") total += r${i}.error.payload.id;`,
    );
  }
  lines.push("  return total;", "}");
  return lines.join("\n");
}

function honoApp(n: number): string {
  const lines = [
    `import * as v from "valibot";`,
    `import { Hono } from "hono";`,
    `import { vValidator } from "@hono/valibot-validator";`,
    "const app = new Hono()",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  .post("/r${i}/:id",`,
      `    vValidator("param", v.object({ id: v.pipe(v.string(), v.transform(Number), v.integer()) })),`,
      `    vValidator("query", v.object({ q${i}: v.optional(v.string()) })),`,
      `    vValidator("json", v.object({ name${i}: v.string() })),`,
      "    (c) => {",
      `      const { id } = c.req.valid("param");`,
      `      if (id < 0) return c.json({ error: { name: "NotFound${i}" as const, payload: { id } } }, 404);`,
      `      return c.json({ id, name${i}: c.req.valid("json").name${i} }, 200);`,
      "    })",
    );
  }
  lines.push(";", "export type AppType = typeof app;", "export default app;");
  return lines.join("\n");
}

function honoClient(n: number): string {
  const lines = [
    `import { hc } from "hono/client";`,
    `import type { AppType } from "./app.ts";`,
    `const client = hc<AppType>("http://localhost/api");`,
    "export async function use(): Promise<number> {",
    "  let total = 0;",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  const r${i} = await client.r${i}[":id"].$post({ param: { id: "${i}" }, query: { q${i}: "x" }, json: { name${i}: "n" } });`,
      `  if (r${i}.ok) { const d = await r${i}.json(); total += d.id + d.name${i}.length; }`,
      `  else if (r${i}.status === 404) { const e = await r${i}.json(); total += e.error.payload.id; }`,
    );
  }
  lines.push("  return total;", "}");
  return lines.join("\n");
}

interface Figures {
  instantiations: number;
  checkSeconds: number;
  memoryMiB: number;
  errors: number;
}

function check(dir: string, project = "tsconfig.json"): Figures {
  let out: string;
  let errors = 0;
  try {
    out = execFileSync(tsc, ["-p", join(dir, project), "--extendedDiagnostics"], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
    errors = (out.match(/error TS\d+/g) ?? []).length;
    if (errors === 0) throw error;
    console.error(
      out
        .split("\n")
        .filter((line) => line.includes("error TS"))
        .slice(0, 3)
        .join("\n"),
    );
  }
  const figure = (name: string): number =>
    Number(new RegExp(`${name}:\\s+([\\d.]+)`).exec(out)?.[1] ?? Number.NaN);
  return {
    instantiations: figure("Instantiations"),
    checkSeconds: figure("Check time"),
    memoryMiB: figure("Memory used") / 1024,
    errors,
  };
}

function tsconfig(
  paths: Readonly<Record<string, readonly string[]>>,
  files = ["app.ts", "client.ts"],
): string {
  return JSON.stringify({
    compilerOptions: {
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      types: [],
      lib: ["es2022", "dom"],
      paths,
    },
    files,
  });
}

execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: "inherit" });
rmSync(work, { recursive: true, force: true });
const rows: { size: number; portico: Figures; hono: Figures; porticoApp: Figures; honoApp: Figures }[] = [];
for (const size of SIZES) {
  const figures: Partial<Record<"portico" | "hono" | "porticoApp" | "honoApp", Figures>> = {};
  for (const [name, app, client, paths] of [
    [
      "portico",
      porticoApp,
      porticoClient,
      {
        portico: [join(root, "dist", "mod.d.ts")],
        "portico/client": [join(root, "dist", "client", "mod.d.ts")],
      },
    ],
    ["hono", honoApp, honoClient, {}],
  ] as const) {
    const dir = join(work, `${name}-${size}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "tsconfig.json"), tsconfig(paths));
    writeFileSync(join(dir, "tsconfig.app.json"), tsconfig(paths, ["app.ts"]));
    writeFileSync(join(dir, "app.ts"), app(size));
    writeFileSync(join(dir, "client.ts"), client(size));
    figures[name] = check(dir);
    figures[`${name}App`] = check(dir, "tsconfig.app.json");
    console.log(`${name.padEnd(8)} ${String(size).padStart(4)} endpoints: ${JSON.stringify(figures[name])}`);
  }
  rows.push({
    size,
    portico: figures.portico!,
    hono: figures.hono!,
    porticoApp: figures.porticoApp!,
    honoApp: figures.honoApp!,
  });
}

const perEndpoint = (pick: (row: (typeof rows)[number]) => Figures): string => {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  return ((pick(last).instantiations - pick(first).instantiations) / (last.size - first.size)).toFixed(0);
};
const cell = (f: Figures): string =>
  `${f.instantiations.toLocaleString("en")} | ${f.checkSeconds.toFixed(2)} s | ${f.memoryMiB.toFixed(0)} MiB${f.errors ? ` | **${f.errors} errors**` : ""}`;
writePage(
  "TYPES.md",
  "Type-checking cost of the typed client",
  "npx tsx bench/types.ts",
  `, TypeScript ${execFileSync(tsc, ["-v"], { encoding: "utf8" }).trim().replace("Version ", "")}, strict, skipLibCheck (libraries as installed: Portico's built .d.ts, Hono's).`,
  [
    "Each app: N endpoints with path, query and JSON params, a declared 404 with a payload, a declared JSON view; the client calls every route and narrows data and the error.",
    "",
    "| endpoints | Portico instantiations | check | memory | Hono + hc instantiations | check | memory | Portico ÷ Hono |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.size} | ${cell(row.portico)} | ${cell(row.hono)} | ${(row.portico.instantiations / row.hono.instantiations).toFixed(2)} |`,
    ),
    "",
    `Growth per endpoint (instantiations, ${rows[0]!.size} → ${rows[rows.length - 1]!.size}): Portico ${perEndpoint((r) => r.portico)}, Hono ${perEndpoint((r) => r.hono)}.`,
    `Of which the app's own declarations (app.ts alone): Portico ${perEndpoint((r) => r.porticoApp)}, Hono ${perEndpoint((r) => r.honoApp)};`,
    `the client's share: Portico ${perEndpoint((r) => ({ ...r.portico, instantiations: r.portico.instantiations - r.porticoApp.instantiations }))}, Hono ${perEndpoint((r) => ({ ...r.hono, instantiations: r.hono.instantiations - r.honoApp.instantiations }))}.`,
  ],
);
