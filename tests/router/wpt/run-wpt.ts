// Runs the web-platform-tests URLPattern pathname cases through Portico, in whatever runtime loads
// this module: the pattern compiler must give exactly the standard's result; the router (the public
// API) may differ only where the README says routes do (trailing slashes, case-sensitivity).
import { createApp } from "../../../src/mod.ts";
import { canonicalPathname, compileStandard } from "../../../src/router/compile-pattern.ts";

/** What a runtime found. */
export interface WptReport {
  readonly compiler: { readonly passed: number; readonly failed: readonly string[] };
  readonly router: {
    readonly passed: number;
    /** Documented differences from the standard, one line each. */
    readonly deviations: readonly string[];
    readonly failed: readonly string[];
  };
}

interface WptCase {
  readonly pattern: unknown[];
  readonly inputs?: unknown[];
  readonly expected_obj?: unknown;
  readonly expected_match?:
    | { readonly pathname?: { readonly groups: Record<string, string | null> } }
    | null
    | "error";
}

type Groups = Record<string, string | null> | null;

/** Runs every pathname-only case of the data. */
export async function runWpt(data: readonly WptCase[]): Promise<WptReport> {
  const compilerFailed: string[] = [];
  const routerFailed: string[] = [];
  const deviations: string[] = [];
  let compilerPassed = 0;
  let routerPassed = 0;
  for (const item of data) {
    const [init, options] = item.pattern as [Record<string, unknown> | undefined, unknown];
    if (typeof init !== "object" || init === null || Object.keys(init).some((key) => key !== "pathname"))
      continue;
    if (options !== undefined && (typeof options !== "object" || options === null)) continue;
    const pattern = typeof init.pathname === "string" ? init.pathname : "*";
    const ignoreCase = (options as { ignoreCase?: boolean } | undefined)?.ignoreCase === true;
    const label = JSON.stringify(pattern);
    let compiled: ReturnType<typeof compileStandard> | undefined;
    try {
      compiled = compileStandard(pattern, ignoreCase);
    } catch {
      compiled = undefined;
    }
    if (item.expected_obj === "error") {
      if (compiled === undefined) compilerPassed++;
      else compilerFailed.push(`${label} should be refused`);
      continue;
    }
    if (compiled === undefined) {
      compilerFailed.push(`${label} was refused`);
      continue;
    }
    if (item.expected_match === "error") continue;
    for (const input of inputsOf(item)) {
      const expected = item.expected_match ? (item.expected_match.pathname?.groups ?? {}) : null;
      const got = execGroups(compiled, input);
      const where = `${label} on ${JSON.stringify(input)}`;
      if (same(got, expected)) compilerPassed++;
      else compilerFailed.push(`${where}: ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
      if (!pattern.startsWith("/") || !input.startsWith("/")) continue;
      const routed = await route(pattern, input);
      if (same(routed, expected)) {
        routerPassed++;
        continue;
      }
      // The documented rule: trailing slashes are ignored (the path without them first, then with one);
      // routes are case-sensitive.
      const rule =
        execGroups(compileStandard(pattern), input.replace(/\/+$/, "")) ??
        (input.endsWith("/") ? execGroups(compileStandard(pattern), `${input.replace(/\/+$/, "")}/`) : null);
      if (same(routed, rule) && (input.endsWith("/") || ignoreCase)) {
        deviations.push(
          `${where}: ${JSON.stringify(routed)} (${ignoreCase ? "case-sensitive" : "trailing slash"})`,
        );
      } else
        routerFailed.push(`${where}: routed ${JSON.stringify(routed)}, expected ${JSON.stringify(expected)}`);
    }
  }
  return {
    compiler: { passed: compilerPassed, failed: compilerFailed },
    router: { passed: routerPassed, deviations, failed: routerFailed },
  };
}

// The pathnames a case matches against: URLs resolved, or `{ pathname, baseURL }` as the standard
// processes a pathname input (relative to the base's directory, then canonicalised).
function inputsOf(item: WptCase): string[] {
  const inputs = item.inputs ?? [];
  const [first, base] = inputs;
  if (typeof first === "string") {
    try {
      return [new URL(first, typeof base === "string" ? base : undefined).pathname];
    } catch {
      return [];
    }
  }
  if (typeof first !== "object" || first === null || base !== undefined) return [];
  const { pathname, baseURL, ...rest } = first as { pathname?: unknown; baseURL?: unknown };
  if (typeof pathname !== "string" || Object.keys(rest).length > 0) return [];
  if (typeof baseURL === "string" && !pathname.startsWith("/")) {
    const basePath = new URL(baseURL).pathname;
    return [canonicalPathname(basePath.slice(0, basePath.lastIndexOf("/") + 1) + pathname)];
  }
  return [canonicalPathname(pathname)];
}

function execGroups(compiled: ReturnType<typeof compileStandard>, path: string): Groups {
  const match = compiled.regexp.exec(path);
  if (match === null) return null;
  return Object.fromEntries(compiled.names.map((name, i) => [name, match[i + 1] ?? null]));
}

async function route(pattern: string, path: string): Promise<Groups> {
  const app = createApp({ logger: { error: () => {} } });
  try {
    app.get(pattern, (ctx) => Response.json({ ...ctx.request.pathParams }));
  } catch (error) {
    return { refused: (error as Error).message };
  }
  const res = await app.request(path);
  return res.status === 200 ? ((await res.json()) as Record<string, string>) : null;
}

// Unmatched optional groups are `null` in the data and absent from pathParams.
function same(a: Groups, b: Groups): boolean {
  if (a === null || b === null) return a === b;
  const present = (groups: Record<string, string | null>): string =>
    JSON.stringify(
      Object.entries(groups)
        .filter(([, value]) => value !== null)
        .sort(),
    );
  return present(a) === present(b);
}
