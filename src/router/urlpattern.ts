// URLPattern is built into Node 24+, Deno, Bun and workerd; the polyfill is loaded only where it is missing.

/** The part of `URLPattern` the router uses. */
export interface PathPattern {
  exec(input: { pathname: string }): { pathname: { groups: Record<string, string | undefined> } } | null;
}

type PathPatternConstructor = new (init: { pathname: string }) => PathPattern;

const native = (globalThis as { URLPattern?: PathPatternConstructor }).URLPattern;

/** The runtime's `URLPattern`, or the polyfill's where the runtime has none. */
export const URLPatternClass: PathPatternConstructor =
  native ??
  ((await import("urlpattern-polyfill/urlpattern")).URLPattern as unknown as PathPatternConstructor);
